/**
 * The self-check as scripts/build.ts runs it (DESIGN.md §4): the machine checks in a worker
 * thread started right after the artifacts are written, while "rendering" goes on (here: public/ copied
 * into the folder and a page written, as Astro does), then the checks after rendering, then the swap.
 * A failure found by either half stops the build before the swap: the previous dist/ stays as it was.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempOutput, swapIntoPlace, writeArtifacts } from '../../src/core/build/output.js';
import { prepareBuild, type PreparedBuild } from '../../src/core/build/prepare.js';
import { finishSelfCheck, machineCheckJob, siteOrigin } from '../../src/core/build/self-check.js';
import { startMachineChecks, type StartOptions } from '../../src/core/build/machine-check-thread.js';
import { runMachineChecks, staleReads } from '../../src/core/build/machine-check.js';
import { ArdsiteError } from '../../src/core/util/errors.js';
import { copyProject, fixedKeyEnv, leftovers, readTree, removeProjects } from '../helpers/build.js';

let root: string;
let prepared: PreparedBuild;
const CARD = ['agents', 'itinerary-concierge', 'agent-card.json'];

beforeAll(async () => {
  root = await copyProject();
  prepared = await prepareBuild({ root, env: fixedKeyEnv() });
});

afterAll(removeProjects);

/** What a step of the fake build may do to the folder. */
type Step = (folder: string) => Promise<void>;

/**
 * The order of scripts/build.ts over a temp folder, with Astro replaced by `render` (which copies
 * public/ first): write the artifacts, `beforeChecks`, start the machine checks (`later`: the URL paths
 * of artifacts written again after rendering), render, join, then the checks after rendering
 * (`afterJoin` runs just before them) and the swap into `distDir`. On any
 * failure the temp folder is removed and the error rethrown. Returns where the machine checks ran.
 */
async function fakeBuild(
  distDir: string,
  steps: {
    beforeChecks?: Step;
    render?: Step;
    afterJoin?: Step;
    start?: StartOptions;
    later?: string[];
    /** The public/ folder the checks are told of (default the project's, as scripts/build.ts does). */
    publicDir?: string | null;
  } = {},
): Promise<'worker' | 'here'> {
  const { site, keyPatterns } = prepared;
  const temp = await makeTempOutput(root);
  let checks;
  try {
    const written = await writeArtifacts(temp, site.artifacts.values());
    await steps.beforeChecks?.(temp);
    const publicDir = steps.publicDir === undefined ? path.join(root, 'public') : steps.publicDir;
    const job = machineCheckJob(temp, site, {
      written,
      keyPatterns,
      later: steps.later ?? [],
      ...(publicDir === null ? {} : { publicDir }),
    });
    checks = startMachineChecks(job, steps.start);
    await cp(path.join(root, 'public'), temp, { recursive: true });
    await steps.render?.(temp);
    checks.rendered();
    const machine = await checks.result;
    // A worker thread says what CPU it used (Linux: /proc/thread-self/stat).
    if (machine.busyMs !== undefined && process.platform === 'linux')
      expect(machine.cpuMs).toBeGreaterThan(0);
    await steps.afterJoin?.(temp);
    await finishSelfCheck(temp, siteOrigin(site), machine, { written, keyPatterns });
    await swapIntoPlace(temp, distDir);
    return checks.where;
  } catch (error) {
    await checks?.stop();
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}

/** The error `promise` rejects with (an ArdsiteError), or a failure when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<ArdsiteError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ArdsiteError) return error;
    throw error;
  }
  throw new Error('the build passed');
}

/** Changes one byte of the card's name in `folder`. */
async function tamperCard(folder: string): Promise<void> {
  const file = path.join(folder, ...CARD);
  const bytes = await readFile(file);
  bytes[bytes.indexOf('Itinerary Concierge')] = 'J'.charCodeAt(0);
  await writeFile(file, bytes);
}

describe('the self-check beside rendering', () => {
  let distDir: string;
  let before: Map<string, Buffer>;

  beforeAll(async () => {
    distDir = path.join(root, 'dist-overlap');
    // A first, clean build: the checks run in a worker thread and wait for public/ (the entry of
    // content/entries/ whose url is a public/ file is read only after "rendering").
    expect(await fakeBuild(distDir)).toBe('worker');
    before = await readTree(distDir);
    expect(before.has('.well-known/ard.json')).toBe(true);
  });

  /** dist/ is byte for byte the first build's, and no temp folder remains. */
  async function distUnchanged(): Promise<void> {
    const after = await readTree(distDir);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [f, b] of before) expect(after.get(f)?.equals(b), f).toBe(true);
    expect(await leftovers(root)).toEqual([]);
  }

  it('a failure the worker thread finds while the pages render fails the build; dist/ stays as it was', async () => {
    const fellBack: string[] = [];
    const start: StartOptions = { onFallback: (why) => fellBack.push(why) };
    const error = await rejection(fakeBuild(distDir, { beforeChecks: tamperCard, start }));
    expect(fellBack).toEqual([]);
    expect(error.code).toBe('BUILD_SELF_CHECK_FAILED');
    expect(error.message).toContain('/agents/itinerary-concierge/agent-card.json: the file on disk differs');
    expect(error.message).toContain('ARD_DIGEST_MISMATCH');
    expect(error.message).toContain('CARD_PAYLOAD_CHANGED');
    await distUnchanged();
  });

  it('a page holding the private key, found after rendering, fails the build; dist/ stays as it was', async () => {
    const page: Step = async (folder) => {
      await mkdir(path.join(folder, 'leak'), { recursive: true });
      await writeFile(path.join(folder, 'leak', 'index.html'), prepared.keyPatterns[0]!);
    };
    const error = await rejection(fakeBuild(distDir, { render: page }));
    expect(error.code).toBe('KEY_PRIVATE_PUBLISHED');
    expect(error.message).toContain('leak/index.html');
    await distUnchanged();
  });

  it('an artifact changed after the worker thread checked it is read again after rendering, and fails', async () => {
    const error = await rejection(fakeBuild(distDir, { afterJoin: tamperCard }));
    expect(error.code).toBe('BUILD_SELF_CHECK_FAILED');
    expect(error.message).toContain('/agents/itinerary-concierge/agent-card.json: the file on disk differs');
    await distUnchanged();
  });

  it('an artifact that public/ shadows is checked after rendering, not before', async () => {
    // As scripts/build.ts does it: the artifact is written again after public/ was copied over it.
    const robots = prepared.site.artifacts.get('/robots.txt')!;
    const shadow: Step = (folder) => writeFile(path.join(folder, 'robots.txt'), 'from public/\n');
    const later = ['/robots.txt'];
    const error = await rejection(fakeBuild(distDir, { render: shadow, later }));
    expect(error.message).toContain('/robots.txt: the file on disk differs');
    await distUnchanged();
    const rewrite: Step = async (folder) => {
      await shadow(folder);
      await writeArtifacts(folder, [robots]);
    };
    expect(await fakeBuild(path.join(root, 'dist-shadowed'), { render: rewrite, later })).toBe('worker');
  });

  it('a file read before rendering ended that rendering wrote makes the result stale; told of public/, the read waits', async () => {
    const { site, keyPatterns } = prepared;
    for (const publicDir of [undefined, path.join(root, 'public')]) {
      const temp = await makeTempOutput(root);
      const written = await writeArtifacts(temp, site.artifacts.values());
      const job = machineCheckJob(temp, site, { written, keyPatterns, ...(publicDir ? { publicDir } : {}) });
      let markRendered!: () => void;
      const renderedNow = new Promise<void>((resolve) => (markRendered = resolve));
      // Who waits for the rendering: the checks note once when it ends, then each read that must wait
      // for it asks again; the second ask is a read waiting. No clock: the checks either end or wait.
      let asks = 0;
      let markWaiting!: () => void;
      const waiting = new Promise<'waits'>((resolve) => (markWaiting = () => resolve('waits')));
      const rendered = {
        then(onRendered: () => void, onFailed: (reason: unknown) => void) {
          if (++asks === 2) markWaiting();
          return renderedNow.then(onRendered, onFailed);
        },
      } as Promise<void>;
      const running = runMachineChecks(job, rendered);
      let ended = false;
      void running.then(() => (ended = true));
      const first = await Promise.race([running.then(() => 'ends' as const), waiting]);
      // Not told of public/, the checks read what public/ holds (the entry /mcp/trip-tools.json, an
      // attestation) at once, before it is there, and end; told of it, a read of it waits.
      expect(first).toBe(publicDir === undefined ? 'ends' : 'waits');
      expect(ended).toBe(publicDir === undefined);
      await cp(path.join(root, 'public'), temp, { recursive: true });
      markRendered();
      const result = await running;
      const stale = staleReads(temp, result).sort();
      await rm(temp, { recursive: true });
      const files = ['attestations/travel-reservation-review.json', 'mcp/trip-tools.json'];
      expect(stale).toEqual(publicDir ? [] : files);
      expect(result.problems.length > 0).toBe(publicDir === undefined);
    }
  });

  it('a worker thread that fails gives way to the same checks in this thread, which still fail the build', async () => {
    const reasons: string[] = [];
    const broken = new URL('data:text/javascript,throw new Error("no worker today")');
    const start: StartOptions = { workerFile: broken, onFallback: (why) => reasons.push(why) };
    const error = await rejection(fakeBuild(distDir, { beforeChecks: tamperCard, start }));
    expect(error.code).toBe('BUILD_SELF_CHECK_FAILED');
    expect(error.message).toContain('CARD_PAYLOAD_CHANGED');
    expect(reasons.join('\n')).toContain('no worker today');
    await distUnchanged();
    expect(existsSync(path.join(root, 'dist-fallback'))).toBe(false);
    expect(await fakeBuild(path.join(root, 'dist-fallback'), { start })).toBe('worker');
  });
});
