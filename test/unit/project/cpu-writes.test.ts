/**
 * What writing a build's files costs in system calls (src/core/project/contained-write.ts, src/core/build/output.ts):
 * the output writer checks each folder on the way once for the whole build, not once per agent's batch, and
 * a write whose rename took the temporary name does not remove that name again. The files written are
 * pinned by the contained-write and build tests.
 */
import type * as Fs from 'node:fs';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ArtifactWriter } from '../../../src/core/build/output.js';

const seen = vi.hoisted(() => ({ lstat: [] as string[], rm: [] as string[] }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof Fs>();
  return {
    ...fs,
    lstatSync: ((file: string, options?: object) => {
      seen.lstat.push(String(file));
      return fs.lstatSync(file, options as never);
    }) as typeof Fs.lstatSync,
    rmSync: ((file: string, options?: object) => {
      seen.rm.push(String(file));
      return fs.rmSync(file, options as never);
    }) as typeof Fs.rmSync,
  };
});

const bytes = (text: string) => new TextEncoder().encode(text);
let out: string | undefined;
afterEach(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

describe("the build's output writer", () => {
  it('looks at each folder once over all batches, and removes no temporary name a rename took', async () => {
    out = mkdtempSync(path.join(os.tmpdir(), 'ardsite-writes-'));
    const writer = new ArtifactWriter(out, path.join(out, 'public'));
    seen.lstat.length = 0;
    seen.rm.length = 0;
    for (const slug of ['a', 'b', 'c'])
      await writer.write([
        {
          path: `/agents/${slug}/agent-card.json`,
          bytes: bytes(`{"${slug}":1}\n`),
          mediaType: 'application/json',
        },
        { path: `/agents/${slug}/permissions.json`, bytes: bytes('{}\n'), mediaType: 'application/json' },
      ]);
    const agents = path.join(out, 'agents');
    expect(seen.lstat.filter((f) => f === agents)).toHaveLength(1);
    expect(seen.rm).toEqual([]);
    expect(readFileSync(path.join(agents, 'b', 'agent-card.json'), 'utf8')).toBe('{"b":1}\n');
    expect(readdirSync(path.join(agents, 'c')).sort()).toEqual(['agent-card.json', 'permissions.json']);
    expect(writer.written.size).toBe(6);
  });
});
