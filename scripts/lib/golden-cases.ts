/**
 * The broken copies of the golden reports of `npm run verify` (./verify-golden.ts): the editor
 * that plants one fault in a hard-linked copy of a built bench site ({@link SiteEditor}: a new inode for
 * each file it changes, so the clean folder stays as built), and the planted faults themselves, at least
 * one per kind of check the verifier makes (DESIGN.md §4: digests, both kinds of signatures, did:web
 * resolution, RAM integrity and copies, entry shape and URNs, the ai-catalog.json copy).
 */
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { applyMutation, type Mutation } from '../../test/helpers/mutations.js';

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
/** The manifest as the cases edit it: its entries as JSON objects. */
export type Manifest = { entries: Json[] };
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
