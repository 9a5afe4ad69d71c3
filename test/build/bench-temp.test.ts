/**
 * `npm run bench` works in folders of the system temp folder (the synthetic publisher it builds, each
 * timed build's report); it must remove them when a build it times fails too, not only after a run that
 * went through. The bench runs with a temp folder of its own (TMPDIR) and a signing key that cannot be
 * read, so the one build it starts (`--verify --agents 1`: build one agent, then time `npm run verify`)
 * fails within seconds.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { runScriptWithEnv } from '../helpers/cli.js';

/** tsx's compile cache (`tsx-<uid>`), which tsx keeps in the temp folder between runs by design. */
const TSX_CACHE = /^tsx-\d+$/;

it('leaves nothing in the temp folder when a build it times fails', async () => {
  const tmp = await mkdtemp(path.join(tmpdir(), 'ardsite-bench-tmpdir-'));
  onTestFinished(() => rm(tmp, { recursive: true, force: true }));
  const run = await runScriptWithEnv('bench.ts', ['--verify', '--agents', '1', '--runs', '1'], {
    TMPDIR: tmp,
    ARDSITE_SIGNING_KEY: 'not a key',
  });
  expect(run.code, run.stderr).not.toBe(0);
  // The bench times the compiled package, as a publisher runs it (scripts/lib/bench-commands.ts).
  expect(run.stderr).toContain('lib/cli/main.js build');
  expect((await readdir(tmp)).filter((name) => !TSX_CACHE.test(name))).toEqual([]);
}, 60_000);
