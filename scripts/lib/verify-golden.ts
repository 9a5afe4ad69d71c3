/**
 * Golden reports of `npm run verify` over the synthetic bench sites (issue 19): a change that makes the
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
 */
import { execFile } from 'node:child_process';
import { link, mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { applyMutation, type Mutation } from '../../test/helpers/mutations.js';

const run = promisify(execFile);

type Json = Record<string, unknown>;

/** A broken copy's folder, with the edits a planted fault needs. Paths are relative to the folder. */
export class SiteEditor {
  constructor(readonly dir: string) {}
  private file(rel: string): string {
    return path.join(this.dir, ...rel.split('/'));
  }
  bytes(rel: string): Promise<Buffer> {
    return readFile(this.file(rel));
  }
  /** Replaces the file (a new inode: the clean folder's hard-linked file is left as it is). */
  async write(rel: string, data: string | Uint8Array): Promise<void> {
    const file = this.file(rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(`${file}.golden-tmp`, data);
    await rename(`${file}.golden-tmp`, file);
  }
  remove(rel: string): Promise<void> {
    return unlink(this.file(rel));
  }
  async json<T = Json>(rel: string): Promise<T> {
    return JSON.parse((await this.bytes(rel)).toString('utf8')) as T;
  }
  /** Edits a JSON file; written back as the build writes JSON (2-space indent, a final newline). */
  async editJson<T = Json>(rel: string, edit: (value: T) => void): Promise<void> {
    const value = await this.json<T>(rel);
    edit(value);
    await this.write(rel, `${JSON.stringify(value, null, 2)}\n`);
  }
  /** Edits a file's text; throws when the edit changed nothing (the fault would not be planted). */
  async editText(rel: string, edit: (text: string) => string): Promise<void> {
    const before = (await this.bytes(rel)).toString('utf8');
    const after = edit(before);
    if (after === before) throw new Error(`the edit of ${rel} changed nothing`);
    await this.write(rel, after);
  }
  /**
   * The site path of file `name` of the `n`-th agent (its folder under `agents/`, in name order: the
   * synthetic site's `agent-0000`, `agent-0001`, … or `agent-00000`, … for 10,000 agents and more).
   */
  async agentFile(n: number, name: string): Promise<string> {
    const folders = (await readdir(path.join(this.dir, 'agents')))
      .filter((f) => f.startsWith('agent-'))
      .sort();
    const folder = folders[n];
    if (folder === undefined) throw new Error(`the site has no agent ${n}`);
    return `agents/${folder}/${name}`;
  }
  /** Applies one of the fuzz tests' mutations (test/helpers/mutations.ts) to a file, JSON as the codec. */
  async mutate(rel: string, m: Mutation): Promise<void> {
    const codec = { parse: JSON.parse, serialise: (v: unknown) => `${JSON.stringify(v, null, 2)}\n` };
    await this.write(rel, applyMutation(await this.bytes(rel), m, codec));
  }
}

/** One broken copy: its name, what it breaks, and how. */
export interface GoldenCase {
  name: string;
  what: string;
  apply(site: SiteEditor): Promise<void>;
}

const MANIFEST = '.well-known/ard.json';
type Manifest = { entries: Json[] };
const entryAt = (m: Manifest, i: number): Json => m.entries[i]!;
const trustManifestOf = (m: Manifest, i: number) => entryAt(m, i).trustManifest as Json;
/** `text` with the character at `at` replaced by another base64url character. */
const flipChar = (text: string, at: number) =>
  `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;

/**
 * The planted faults (at least one per kind of check): changed, cut, removed and mutated files, wrong
 * digests, bad and non-canonical signatures, a wrong or private key in jwks.json, a DID document that
 * authorises nothing, RAM copies and footprint terms that disagree, a changed permission file, a
 * duplicate entry, a bad URN and entry shape, a drifting ai-catalog.json, a wrong well-known card and a
 * byte order mark. Entry indices are below 30, so every case applies to a site of 30 agents or more.
 */
export const GOLDEN_CASES: readonly GoldenCase[] = [
  { name: 'clean', what: 'the site as built', apply: async () => {} },
  {
    name: 'card-byte',
    what: "one byte of agent 3's card description changed",
    apply: async (s) =>
      s.editText(await s.agentFile(3, 'agent-card.json'), (t) =>
        t.replace('"Synthetic agent number 3', '"synthetic agent number 3'),
      ),
  },
  {
    name: 'card-cut',
    what: "agent 4's card cut in half",
    apply: async (s) => s.mutate(await s.agentFile(4, 'agent-card.json'), { kind: 'truncate', at: 0.5 }),
  },
  {
    name: 'card-removed',
    what: "agent 7's card removed",
    apply: async (s) => s.remove(await s.agentFile(7, 'agent-card.json')),
  },
  {
    name: 'card-bad-utf8',
    what: "a byte 0xff inserted into agent 8's card",
    apply: async (s) =>
      s.mutate(await s.agentFile(8, 'agent-card.json'), {
        kind: 'insert',
        at: 0.3,
        what: { kind: 'bytes', bytes: [0xff] },
      }),
  },
  {
    name: 'card-deep',
    what: "a value of agent 10's card swapped for a list nested 3,000 deep",
    apply: async (s) =>
      s.mutate(await s.agentFile(10, 'agent-card.json'), { kind: 'swap', pick: 40, to: 'deep' }),
  },
  {
    name: 'wrong-digest',
    what: "entry 9's digest, one hex digit changed",
    apply: async (s) =>
      s.editJson<Manifest>(MANIFEST, (m) => {
        const e = entryAt(m, 9);
        const d = String(e.digest);
        e.digest = `${d.slice(0, -1)}${d.endsWith('0') ? '1' : '0'}`;
      }),
  },
  {
    name: 'trust-signature',
    what: "entry 5's trustManifest signature, one character changed",
    apply: async (s) =>
      s.editJson<Manifest>(MANIFEST, (m) => {
        const tm = trustManifestOf(m, 5);
        const sig = String(tm.signature);
        tm.signature = flipChar(sig, sig.length - 40);
      }),
  },
  {
    name: 'trust-signature-padding-bits',
    what: "entry 6's trustManifest signature with non-zero unused bits in its last character (jose decides)",
    apply: async (s) =>
      s.editJson<Manifest>(MANIFEST, (m) => {
        const tm = trustManifestOf(m, 6);
        const sig = String(tm.signature);
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
        const last = alphabet.indexOf(sig.at(-1)!);
        tm.signature = `${sig.slice(0, -1)}${alphabet[last ^ 1]}`;
      }),
  },
  {
    name: 'trust-subject',
    what: "entry 25's trustManifest subject names another version",
    apply: async (s) =>
      s.editJson<Manifest>(MANIFEST, (m) => {
        (trustManifestOf(m, 25).subject as Json).version = '9.9.9';
      }),
  },
  {
    name: 'card-signature',
    what: "agent 11's first card signature, one character changed",
    apply: async (s) =>
      s.editJson(await s.agentFile(11, 'agent-card.json'), (c) => {
        const sig = (c.signatures as Json[])[0]!;
        sig.signature = flipChar(String(sig.signature), 20);
      }),
  },
  {
    name: 'card-unsigned',
    what: "agent 23's card without signatures",
    apply: async (s) => s.editJson(await s.agentFile(23, 'agent-card.json'), (c) => void delete c.signatures),
  },
  {
    name: 'jwks-wrong-key',
    what: "jwks.json lists another P-256 key under the site's kid",
    apply: async (s) =>
      s.editJson<{ keys: Json[] }>('.well-known/jwks.json', (j) => {
        // The public half of the TEST-ONLY ES256 key of test/vectors/test-key-es256.jwk.json.
        j.keys[0]!.x = 'teAwueFuznOQAzoNCd8PbqZr-kPTTk9uY7lW-zjhHKc';
        j.keys[0]!.y = 'UfU2xAUBCHUAVd0NsNUvliOC_tsXFSjC9p26yONsCC4';
      }),
  },
  {
    name: 'jwks-private',
    what: 'jwks.json publishes a private member "d"',
    apply: async (s) =>
      s.editJson<{ keys: Json[] }>('.well-known/jwks.json', (j) => {
        j.keys[0]!.d = 'AAAA';
      }),
  },
  {
    name: 'did-no-assertion',
    what: 'did.json authorises no key for assertions (every signature fails)',
    apply: async (s) => s.editJson('.well-known/did.json', (d) => void delete d.assertionMethod),
  },
  {
    name: 'did-bom',
    what: 'did.json starts with a byte order mark',
    apply: async (s) => s.mutate('.well-known/did.json', { kind: 'bom' }),
  },
  {
    name: 'ram-copies',
    what: "agent 13's top-level RAM loses an access (the two RAM copies differ)",
    apply: async (s) =>
      s.editJson(
        await s.agentFile(13, 'agent-card.json'),
        (c) => void ((c.resourceAccessManifest as Json).resourceAccesses as unknown[]).pop(),
      ),
  },
  {
    name: 'footprint',
    what: "entry 15's ram:accessCount one more than its card's RAM",
    apply: async (s) =>
      s.editJson<Manifest>(MANIFEST, (m) => {
        const e = entryAt(m, 15);
        e['ram:accessCount'] = Number(e['ram:accessCount']) + 1;
      }),
  },
  {
    name: 'permission-file',
    what: "agent 17's permission file names another agent",
    apply: async (s) =>
      s.editJson(await s.agentFile(17, 'permissions.json'), (p) => {
        p.agent = 'urn:air:bench.example.com:bench:agent-0018';
      }),
  },
  {
    name: 'duplicate-entry',
    what: 'entry 0 listed a second time, at the end',
    apply: async (s) => s.editJson<Manifest>(MANIFEST, (m) => void m.entries.push(entryAt(m, 0))),
  },
  {
    name: 'bad-urn',
    what: "entry 19's identifier is not an air URN",
    apply: async (s) =>
      s.editJson<Manifest>(MANIFEST, (m) => {
        entryAt(m, 19).identifier = 'urn:air:bench.example.com';
      }),
  },
  {
    name: 'entry-shape',
    what: "entry 21's type is a number",
    apply: async (s) =>
      s.editJson<Manifest>(MANIFEST, (m) => {
        entryAt(m, 21).type = 42;
      }),
  },
  {
    name: 'manifest-swap',
    what: 'a value deep in ard.json swapped for a 1.2 MB string (a fuzz mutation)',
    apply: async (s) => s.mutate(MANIFEST, { kind: 'swap', pick: 1234, to: 'huge-string' }),
  },
  {
    name: 'ai-catalog-drift',
    what: 'ai-catalog.json lacks its third entry',
    apply: async (s) =>
      s.editJson<Manifest>('.well-known/ai-catalog.json', (c) => void c.entries.splice(2, 1)),
  },
  {
    name: 'well-known-card',
    what: "/.well-known/agent-card.json is agent 0's card with one byte changed",
    apply: async (s) =>
      s.write(
        '.well-known/agent-card.json',
        (await s.bytes(await s.agentFile(0, 'agent-card.json')))
          .toString('utf8')
          .replace('"Synthetic agent', '"synthetic agent'),
      ),
  },
  {
    name: 'manifest-cut',
    what: 'ard.json cut at two thirds (not JSON)',
    apply: async (s) => s.mutate(MANIFEST, { kind: 'truncate', at: 2 / 3 }),
  },
];

/** The cases made of the 10,000-entry site too (each copy there is a full-size verification). */
export const LARGE_SITE_CASES = [
  'clean',
  'card-byte',
  'trust-signature',
  'did-no-assertion',
  'duplicate-entry',
];

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
    const args = ['--import', 'tsx', 'scripts/verify.ts', folder, '--origin', origin, ...extra];
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
