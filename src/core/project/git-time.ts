/**
 * Timestamps that do not change when nothing changed (DESIGN.md §2 `updatedAt`, reproducible builds):
 * the time of the last git commit that touched a file, else `SOURCE_DATE_EPOCH`
 * (reproducible-builds.org), else the build time.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Last commit time (Unix seconds) of every file tracked under `root`, from ONE `git log` walk (so a
 * site of 10,000 agents costs one git process, not 10,000). Keys are paths relative to `root` with `/`.
 * Returns an empty map when `root` is not in a git work tree or git is missing. Uncommitted changes are
 * not seen: a file edited since its last commit keeps that commit's time.
 */
export async function gitLastCommitTimes(root: string, pathspec = '.'): Promise<Map<string, number>> {
  const times = new Map<string, number>();
  let stdout: string;
  try {
    const prefix = (await run('git', ['rev-parse', '--show-prefix'], { cwd: root })).stdout.trim();
    ({ stdout } = await run(
      'git',
      ['log', '--format=%x00%ct', '--name-only', '--no-renames', '--', pathspec],
      {
        cwd: root,
        maxBuffer: 512 * 1024 * 1024,
      },
    ));
    let current = 0;
    for (const line of stdout.split('\n')) {
      if (line.startsWith('\u0000')) current = Number(line.slice(1));
      else if (line !== '') {
        // git prints paths relative to the repository top; make them relative to root.
        const file = prefix && line.startsWith(prefix) ? line.slice(prefix.length) : line;
        if (!times.has(file)) times.set(file, current);
      }
    }
  } catch {
    return times;
  }
  return times;
}

/**
 * `SOURCE_DATE_EPOCH` as a Date, or undefined when unset.
 * @throws Error when it is set but is not a non-negative integer (reproducible-builds.org spec).
 */
export function sourceDateEpoch(env: NodeJS.ProcessEnv = process.env): Date | undefined {
  const raw = env.SOURCE_DATE_EPOCH;
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw))
    throw new Error(`SOURCE_DATE_EPOCH must be a whole number of seconds, got "${raw}"`);
  return new Date(Number(raw) * 1000);
}

/** ISO 8601 UTC without milliseconds: `2026-11-30T03:57:24Z` (RFC 3339 §5.6). */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The `updatedAt` of an artifact made from `files` (paths relative to the project root, with `/`): the
 * newest last-commit time among them (`times`, from {@link gitLastCommitTimes}), clamped to `fallback`
 * (SOURCE_DATE_EPOCH or the build time, which is also the signature's `issuedAt`), as
 * reproducible-builds.org's SOURCE_DATE_EPOCH specification asks of recorded times, so that an entry
 * never says it changed after it was signed; `fallback` when one of them has never been committed,
 * since the artifact then holds something newer than any commit (a new agent must not take the date of
 * an old resource file it shares), and when there is no git history at all.
 */
export function lastModified(
  files: readonly string[],
  times: ReadonlyMap<string, number>,
  fallback: Date,
): Date {
  let newest = -1;
  for (const f of files) {
    const time = times.get(f);
    if (time === undefined) return fallback;
    newest = Math.max(newest, time);
  }
  return newest >= 0 && newest * 1000 < fallback.getTime() ? new Date(newest * 1000) : fallback;
}
