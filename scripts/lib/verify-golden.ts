/**
 * Golden reports of `npm run verify` over the synthetic bench sites: a change that makes the
 * verifier faster must leave every report the same, byte for byte, on the clean site and on broken copies
 * of it. `npm run bench -- --verify --golden <dir>` builds the site, makes the broken copies (hard links of
 * the clean folder, each with one planted fault: {@link GOLDEN_CASES}) and writes each one's reports
 * (`--json` and the text report) into `<dir>`; `npm run bench -- --verify --compare <dir>` verifies the
 * same folders again with this tree's verifier, in one thread and with helper threads, and says which
 * reports differ. The sites stay in `<dir>/sites/`: a build signs with a throw-away key, so a report is
 * only comparable over the very folder it was made from.
 *
 * Two members of the `--json` report are not compared: `elapsedMs` (the time) and `helperThreads` (how
 * many helpers ran, which `--threads` and the site's size decide); both are written as 0.
 *
 * The broken copies and the faults planted in them are in ./golden-cases.ts.
 */
import { execFile } from 'node:child_process';
import { link, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { GOLDEN_CASES, LARGE_SITE_CASES, SiteEditor, type Manifest } from './golden-cases.js';

const run = promisify(execFile);

/** Hard-links every file of `src` into `dest` (made), so a copy of a site costs no file contents. */
export async function linkCopy(src: string, dest: string): Promise<void> {
  await mkdir(dest, { recursive: true });
  for (const entry of await readdir(src, { withFileTypes: true })) {
    const from = path.join(src, entry.name);
    const to = path.join(dest, entry.name);
    if (entry.isDirectory()) await linkCopy(from, to);
    else await link(from, to);
  }
}

/** What one `npm run verify` run printed. */
export interface VerifyOutputs {
  exit: number;
  /** The `--json` report, with `elapsedMs` and `helperThreads` written as 0. */
  json: string;
  /** The text report. */
  text: string;
}

/** `elapsedMs` and `helperThreads` set to 0 in a `--json` report, every other byte kept. */
export function normaliseJsonReport(json: string): string {
  return json
    .replace(/^ {2}"elapsedMs": \d+,$/m, '  "elapsedMs": 0,')
    .replace(/^ {2}"helperThreads": \d+,$/m, '  "helperThreads": 0,');
}

/**
 * Runs `npm run verify` (scripts/verify.ts of `appRoot`, one fresh process) over `folder` as `origin`,
 * twice: with `--json` and without. `extra`: more arguments (`--threads N`).
 */
export async function verifyOutputs(
  appRoot: string,
  folder: string,
  origin: string,
  extra: readonly string[] = [],
): Promise<VerifyOutputs> {
  const once = async (json: boolean) => {
    const args = ['--import', 'tsx', 'src/cli/main.ts', 'verify', folder, '--origin', origin, ...extra];
    if (json) args.push('--json');
    try {
      const { stdout } = await run(process.execPath, args, { cwd: appRoot, maxBuffer: 1024 ** 3 });
      return { exit: 0, stdout };
    } catch (error) {
      const e = error as { code?: unknown; stdout?: string };
      if (typeof e.code !== 'number' || e.stdout === undefined) throw error;
      return { exit: e.code, stdout: e.stdout };
    }
  };
  const json = await once(true);
  const text = await once(false);
  if (json.exit !== text.exit)
    throw new Error(`verify of ${folder} exits ${json.exit} with --json, ${text.exit} without`);
  return { exit: json.exit, json: normaliseJsonReport(json.stdout), text: text.stdout };
}

/** One case of a golden folder's index (`golden.json`). */
interface GoldenEntry {
  /** `<entries>-<case name>`, also the name of its folder under `sites/` and of its reports. */
  name: string;
  what: string;
  exit: number;
}

/** A golden folder's index. */
interface GoldenIndex {
  origin: string;
  cases: GoldenEntry[];
}

/** Below this many entries a site gets every case; larger ones get {@link LARGE_SITE_CASES}. */
const ALL_CASES_BELOW = 5_000;

/** The golden folder's index, or an empty one. */
async function readIndex(dir: string, origin: string): Promise<GoldenIndex> {
  try {
    return JSON.parse(await readFile(path.join(dir, 'golden.json'), 'utf8')) as GoldenIndex;
  } catch {
    return { origin, cases: [] };
  }
}

/**
 * Adds the built site `site.folder` to the golden folder `dir` (made when missing): its copies under
 * `dir/sites/<entries>-<case>/` (every case of {@link GOLDEN_CASES} for a site below 5,000 entries,
 * {@link LARGE_SITE_CASES} for a larger one; `entries` defaults to the length of its manifest's list),
 * and their reports by `appRoot`'s verifier under `dir/reports/`. `log` hears each case.
 * @throws Error when `dir` already holds a case of that name, or a case cannot be planted.
 */
export async function writeGolden(
  dir: string,
  appRoot: string,
  origin: string,
  site: { folder: string; entries?: number },
  log: (line: string) => void,
): Promise<void> {
  const index = await readIndex(dir, origin);
  if (index.origin !== origin) throw new Error(`${dir} holds reports for ${index.origin}, not ${origin}`);
  await mkdir(path.join(dir, 'reports'), { recursive: true });
  const entries =
    site.entries ??
    (JSON.parse(await readFile(path.join(site.folder, '.well-known', 'ard.json'), 'utf8')) as Manifest)
      .entries.length;
  for (const c of GOLDEN_CASES) {
    if (entries >= ALL_CASES_BELOW && !LARGE_SITE_CASES.includes(c.name)) continue;
    const name = `${entries}-${c.name}`;
    if (index.cases.some((e) => e.name === name)) throw new Error(`${dir} already holds ${name}`);
    const copy = path.join(dir, 'sites', name);
    await linkCopy(site.folder, copy);
    await c.apply(new SiteEditor(copy));
    const out = await verifyOutputs(appRoot, copy, origin);
    await writeFile(path.join(dir, 'reports', `${name}.json`), out.json);
    await writeFile(path.join(dir, 'reports', `${name}.txt`), out.text);
    index.cases.push({ name, what: c.what, exit: out.exit });
    log(`golden ${name}: exit ${out.exit}, ${out.json.length} bytes of --json (${c.what})`);
    await writeFile(path.join(dir, 'golden.json'), `${JSON.stringify(index, null, 2)}\n`);
  }
}

/**
 * Verifies every site of the golden folder `dir` again with `appRoot`'s verifier, once per `threads`
 * setting (`undefined`: as `npm run verify` decides; a number: `--threads N`), and compares exit code,
 * `--json` and text reports with the golden ones. Returns the differences (empty: all the same).
 */
export async function compareGolden(
  dir: string,
  appRoot: string,
  threads: ReadonlyArray<number | undefined>,
  log: (line: string) => void,
): Promise<string[]> {
  const index = JSON.parse(await readFile(path.join(dir, 'golden.json'), 'utf8')) as GoldenIndex;
  const differences: string[] = [];
  for (const c of index.cases) {
    const json = await readFile(path.join(dir, 'reports', `${c.name}.json`), 'utf8');
    const text = await readFile(path.join(dir, 'reports', `${c.name}.txt`), 'utf8');
    for (const t of threads) {
      const extra = t === undefined ? [] : ['--threads', String(t)];
      const out = await verifyOutputs(appRoot, path.join(dir, 'sites', c.name), index.origin, extra);
      const how = t === undefined ? 'default threads' : `--threads ${t}`;
      const differs = [
        ...(out.exit !== c.exit ? [`exit ${out.exit}, golden ${c.exit}`] : []),
        ...(out.json !== json ? ['--json report'] : []),
        ...(out.text !== text ? ['text report'] : []),
      ];
      if (differs.length > 0) differences.push(`${c.name} (${how}): ${differs.join(', ')} differ`);
      log(`compare ${c.name} (${how}): ${differs.length === 0 ? 'same' : differs.join(', ')}`);
    }
  }
  return differences;
}
