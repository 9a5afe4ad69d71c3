/**
 * The layers of src/core (.dependency-cruiser.cjs, docs/architecture.md): dependency-cruiser finds no
 * wrong-way import in the sources, and it does fail the imports the rules forbid when they are planted in a
 * small tree of the same shape: an import upward, between peers, from a module outside every layer, and
 * from src/core into its callers. A downward import in the same tree passes.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = path.join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

/** Runs `npm run lint:layers` (dependency-cruiser with the repository's rules over `src`) in `dir`. */
function cruise(dir: string): { status: number | null; violations: string[]; output: string } {
  const run = spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', 'err'], {
    cwd: dir,
    encoding: 'utf8',
  });
  const output = `${run.stdout}${run.stderr}`;
  // one line per violation: "  error <rule>: <from> → <to>"
  const violations = [...output.matchAll(/^\s*error (\S+): (\S+) → (\S+)$/gm)].map(
    (m) => `${m[1]}: ${m[2]} → ${m[3]}`,
  );
  return { status: run.status, violations, output };
}

function writeTree(dir: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
}

describe('layers of src/core', () => {
  it('src/ has no import against the layers', () => {
    const { status, violations, output } = cruise(ROOT);
    expect(violations).toEqual([]);
    expect(output).toContain('no dependency violations found');
    expect(status).toBe(0);
  }, 120_000);

  it('fails a planted wrong-way import, an import between peers, a module outside the layers and an import of a caller', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ardsite-layers-'));
    try {
      writeTree(dir, {
        'tsconfig.json': JSON.stringify({
          compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true },
          include: ['src'],
        }),
        'src/core/util/low.ts': "import { high } from '../site/high.js';\nexport const low = high + 1;\n",
        'src/core/site/high.ts': "import { base } from '../util/base.js';\nexport const high = base;\n",
        'src/core/util/base.ts': 'export const base = 1;\n',
        'src/core/pages/view.ts': "import { diff } from '../diff/diff.js';\nexport const view = diff;\n",
        'src/core/diff/diff.ts': "import { high } from '../site/high.js';\nexport const diff = high;\n",
        'src/core/loose.ts': "import { base } from './util/base.js';\nexport const loose = base;\n",
        'src/core/build/run.ts':
          "import { command } from '../../cli/command.js';\nexport const run = command;\n",
        'src/cli/command.ts': "import { base } from '../core/util/base.js';\nexport const command = base;\n",
      });
      const { status, violations } = cruise(dir);
      expect(violations.sort()).toEqual([
        'core-modules-live-in-layers: src/core/loose.ts → src/core/util/base.ts',
        'core-stays-below-its-callers: src/core/build/run.ts → src/cli/command.ts',
        'layer-pages: src/core/pages/view.ts → src/core/diff/diff.ts',
        'layer-util: src/core/util/low.ts → src/core/site/high.ts',
      ]);
      expect(status).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
