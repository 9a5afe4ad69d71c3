/**
 * `ardsite serve --workers 2` (src/cli/lib/serve-cluster.ts) in a child process, over a registry build:
 * both workers answer on one port; a page token made by one worker is accepted by the other (the
 * secret is handed over IPC); a killed worker is replaced; SIGTERM ends the primary and every worker.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, fixedKeyEnv, removeProjects } from '../helpers/build.js';
import { buildRegistrySite, freePorts } from '../helpers/registry.js';
import { REPO_ROOT } from '../helpers/site.js';

const SCRUBBED = /^(CI|ARDSITE_.*|SOURCE_DATE_EPOCH|NODE_ENV|VITEST.*|TEST|GIT_.*|PORT|HOST)$/;
let root: string;
let child: ChildProcess | undefined;
let stderr = '';

/** Waits until the server's stderr matches `pattern` (the test's timeout ends a wait that never does). */
async function waitFor(pattern: RegExp): Promise<RegExpExecArray> {
  for (;;) {
    const found = pattern.exec(stderr);
    if (found) return found;
    if (child?.exitCode !== null) throw new Error(`the server ended; stderr:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  root = await copyProject();
  await buildRegistrySite(root);
}, 240_000);

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await removeProjects();
});

describe('npm run serve -- --workers 2', () => {
  it('answers from both workers, honours page tokens across them, replaces a killed worker, and ends them all on SIGTERM', async () => {
    const [port] = await freePorts(1);
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !SCRUBBED.test(k)));
    const secret = 's'.repeat(48);
    child = spawn(
      process.execPath,
      [
        ...['--import', 'tsx', path.join(REPO_ROOT, 'src/cli/main.ts'), 'serve', '--root', root],
        ...['--no-build', '--workers', '2', '--port', String(port)],
      ],
      {
        cwd: REPO_ROOT,
        env: { ...clean, ...fixedKeyEnv(), NO_COLOR: '1', ARDSITE_REGISTRY_SECRET: secret },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.stdout!.resume();
    const exit = new Promise<number>((resolve) => child!.on('close', (code) => resolve(code ?? -1)));
    const started = await waitFor(/lookup API at (\S+) .* with 2 worker processes \((\d+), (\d+)\)/);
    const api = started[1]!;
    const pids = [Number(started[2]), Number(started[3])];
    expect(api).toBe(`http://127.0.0.1:${port}/ard/v1`);

    /** The pids of the workers that logged a search, in order. */
    const searchLog = () =>
      [...stderr.matchAll(/\[worker (\d+)\] POST \/ard\/v1\/search \d+ /g)].map((m) => Number(m[1]));
    /** One search on a connection of its own: its answer and the pid of the worker that logged it. */
    const search = async (body: Record<string, unknown>) => {
      const before = searchLog().length;
      const answer = await fetch(`${api}/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', connection: 'close' },
        body: JSON.stringify(body),
      });
      const json = (await answer.json()) as { results?: unknown[]; nextPageToken?: string };
      while (searchLog().length === before) await new Promise((r) => setTimeout(r, 50));
      return { status: answer.status, json, pid: searchLog().at(-1)! };
    };

    // A token made by one worker, used until the other worker answers (connections go to workers in turn).
    const first = await search({ query: { text: 'flight' }, pageSize: 1 });
    expect(first.status).toBe(200);
    expect(first.json.nextPageToken).toBeTruthy();
    const next = { query: { text: 'flight' }, pageSize: 1, pageToken: first.json.nextPageToken };
    let other = await search(next);
    while (other.pid === first.pid) other = await search(next);
    expect(pids).toContain(first.pid);
    expect(pids).toContain(other.pid);
    expect(other.status).toBe(200);
    expect(other.json.results).toHaveLength(1);
    expect(stderr).not.toContain(secret);

    // A killed worker is replaced by a new process, which answers too.
    process.kill(pids[0]!, 'SIGKILL');
    const replaced = await waitFor(
      new RegExp(`worker ${pids[0]} ended \\(SIGKILL\\); started worker (\\d+)`),
    );
    const fresh = Number(replaced[1]);
    await waitFor(new RegExp(`worker ${fresh} listens`));
    let answered = await search(next);
    while (answered.pid !== fresh) answered = await search(next);
    expect(answered.status).toBe(200);

    // SIGTERM to the primary ends every process.
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect([pids[1]!, fresh].filter(running)).toEqual([]);
  }, 240_000);
});
