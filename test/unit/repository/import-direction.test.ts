/**
 * Imports under src/ run one way: no module reaches itself again through its imports, type-only imports
 * included (a type cycle ties two concepts together as much as a value cycle does). Read with madge over
 * the TypeScript sources, `.js` specifiers resolved through tsconfig.json.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

async function cyclesUnder(dir: string): Promise<{ cycles: string[][]; files: number }> {
  const graph = await madge(dir, {
    fileExtensions: ['ts'],
    tsConfig: path.join(ROOT, 'tsconfig.json'),
    detectiveOptions: { ts: { skipTypeImports: false } },
  });
  return { cycles: graph.circular(), files: Object.keys(graph.obj()).length };
}

describe('import direction', () => {
  it('src/ has no import cycle', async () => {
    const { cycles, files } = await cyclesUnder(path.join(ROOT, 'src'));
    expect(files).toBeGreaterThan(100);
    expect(cycles).toEqual([]);
  }, 60_000);

  it('finds a cycle made of type-only imports (the check can fail)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ardsite-cycle-'));
    try {
      writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b.js';\nexport type A = { b?: B };\n");
      writeFileSync(path.join(dir, 'b.ts'), "import type { A } from './a.js';\nexport type B = { a?: A };\n");
      const { cycles } = await cyclesUnder(dir);
      expect(cycles).toEqual([['a.ts', 'b.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
