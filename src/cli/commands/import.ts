/**
 * `ardsite import <card file or https URL> [--root <project>] [--slug <slug>] [--as-own] [--base-url <URL>]`:
 * turns an existing A2A AgentCard into `content/agents/<slug>.md` and `content/resources/*.yaml` for its
 * RAM (src/core/import/import-card.ts), and lists what it dropped or changed and why. Another publisher's
 * card (an address on another site than publisher.yaml's `domain`) becomes `content/entries/<slug>.yaml`,
 * their entry pointing at their card, with a warning; `--as-own` takes it over as an agent instead, with
 * a warning. A relative address is resolved against the URL the card was read from, or `--base-url`. A URL is read with the
 * verifier's network reader (src/core/verify/http-reader.ts): https only, no private addresses (unless
 * `--allow-private`), a 1 MiB cap and a timeout; `--resolve host=URL` as for verify and pin. Never overwrites a file that exists with other content. Exit 0 imported, 1 refused,
 * 2 bad usage.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { relativePathProblem, writeContained } from '../../core/project/contained-write.js';
import path from 'node:path';
import { loadPublisherFile } from '../../core/content/load.js';
import { ArdsiteError, formatDiagnostic } from '../../core/util/errors.js';
import type { JsonRecord } from '../../core/a2a/a2a-forms.js';
import { importAgentCard, type ImportOptions } from '../../core/import/import-card.js';
import { entryOfCard, manifestUrlOf } from '../../core/import/their-entry.js';
import { jsonErrorPlace } from '../../core/util/json-position.js';
import { httpReader } from '../../core/verify/http-reader.js';
import { projectFolder } from '../lib/args.js';
import { resolveMap } from '../lib/network-options.js';
import { shellWord } from '../../core/util/shell-word.js';
import { terminalText } from '../../core/util/terminal-text.js';

/** Largest card read, in bytes: a card is a few kilobytes; this bounds a hostile answer. */
const MAX_CARD_BYTES = 1024 * 1024;

/** The options of `ardsite import` (src/cli/program.ts declares them). */
export interface ImportCommandOptions {
  /** The project folder. */
  root: string;
  /** The slug of the agent or entry written (default from the card's name). */
  slug?: string;
  /** Takes another publisher's card over as an agent of this site, signed with its key. */
  asOwn: boolean;
  /** What a relative address of a card read from a file is resolved against. */
  baseUrl?: string;
  /** host=URL: read https://host/… from that server instead (tests, a card not yet deployed). */
  resolve: string[];
  allowPrivate: boolean;
}

/** The card's text, and for a URL the exact bytes read and the entry its site's manifest gives for it. */
async function readCard(
  from: string,
  values: ImportCommandOptions,
): Promise<{
  text: string;
  readFrom?: { url: string; bytes: Uint8Array };
  theirEntry?: JsonRecord;
}> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(from)) {
    if (!/^https:\/\//i.test(from))
      throw new ArdsiteError('IMPORT_NOT_A_CARD', `${from}: a card is read over https only`);
    const reader = httpReader({
      maxBytes: MAX_CARD_BYTES,
      resolve: await resolveMap(values.resolve),
      allowPrivate: values.allowPrivate,
    });
    const doc = await reader.read(from).catch((error: unknown) => {
      throw new ArdsiteError('IMPORT_NOT_A_CARD', `${from} could not be read: ${(error as Error).message}`);
    });
    if (!doc) throw new ArdsiteError('IMPORT_NOT_A_CARD', `${from} could not be read`);
    // The card's own site may list it in its ARD manifest: that entry names it as its publisher does.
    const manifest = await reader.read(manifestUrlOf(from)).catch(() => undefined);
    let theirEntry: JsonRecord | undefined;
    try {
      theirEntry = manifest && entryOfCard(JSON.parse(new TextDecoder().decode(manifest.bytes)), from);
    } catch {
      theirEntry = undefined; // no manifest, or not JSON: the card is listed under a made-up identifier
    }
    return {
      text: new TextDecoder().decode(doc.bytes),
      readFrom: { url: from, bytes: doc.bytes },
      ...(theirEntry ? { theirEntry } : {}),
    };
  }
  const text = await readFile(path.resolve(from)).catch((error: NodeJS.ErrnoException) => {
    const why =
      error.code === 'ENOENT'
        ? 'there is no such file'
        : error.code === 'EISDIR'
          ? 'it is a folder, not a card file'
          : error.message;
    throw new ArdsiteError('IMPORT_NOT_A_CARD', `${from} could not be read: ${why}`);
  });
  if (text.byteLength > MAX_CARD_BYTES)
    throw new ArdsiteError('IMPORT_NOT_A_CARD', `${from} is larger than ${MAX_CARD_BYTES} bytes`);
  return { text: text.toString('utf8') };
}

/** The publisher's site, which tells its own cards from others'. @throws ArdsiteError on a bad file. */
async function publisherOf(root: string): Promise<NonNullable<ImportOptions['publisher']>> {
  const { publisher, diagnostics } = await loadPublisherFile({ root });
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (!publisher || errors.length > 0)
    throw new ArdsiteError(
      errors[0]?.code ?? 'FILE_MISSING',
      `npm run import needs content/publisher.yaml's domain to tell your cards from others', and the file has errors:\n  ${errors.map(formatDiagnostic).join('\n  ')}`,
    );
  return {
    domain: publisher.domain,
    namespace: publisher.namespace,
    ...(publisher.organizationUrl ? { organizationUrl: publisher.organizationUrl } : {}),
    ...(publisher.contactEmail ? { contactEmail: publisher.contactEmail } : {}),
  };
}

/** `--base-url`, checked. @throws ArdsiteError IMPORT_RELATIVE_URL when it is not an absolute https URL. */
function baseUrl(given: string | undefined): string | undefined {
  if (given === undefined) return undefined;
  if (!URL.canParse(given) || new URL(given).protocol !== 'https:')
    throw new ArdsiteError('IMPORT_RELATIVE_URL', `--base-url "${given}" must be an absolute https URL`);
  return given;
}
/**
 * Runs `ardsite import <from>` and returns its exit code: 0 imported, 1 refused (the reason on stderr).
 *
 * @throws UsageError for a `--root` that is not a folder or a malformed `--resolve`.
 */
export async function runImport(from: string, values: ImportCommandOptions): Promise<number> {
  const root = projectFolder(values.root);
  try {
    if (!existsSync(path.join(root, 'content')))
      throw new ArdsiteError(
        'IMPORT_NOT_A_CARD',
        `${root} has no content/ folder: make a project with npm run new first, or pass --root`,
      );
    const base = baseUrl(values.baseUrl);
    const publisher = await publisherOf(root);
    const read = await readCard(from, values);
    const text = read.text.replace(/^\uFEFF/, '');
    let card: unknown;
    try {
      card = JSON.parse(text);
    } catch (error) {
      const at = jsonErrorPlace(text, error);
      throw new ArdsiteError('IMPORT_NOT_A_CARD', `${from} is not JSON${at}: ${(error as Error).message}`);
    }
    const result = importAgentCard(card, {
      source: from,
      publisher,
      asOwn: values.asOwn,
      ...(values.slug ? { slug: values.slug } : {}),
      ...(read.readFrom ? { readFrom: read.readFrom } : {}),
      ...(read.theirEntry ? { theirEntry: read.theirEntry } : {}),
      ...(base ? { baseUrl: base } : {}),
    });
    // Every file is checked before any is written: an import is all or nothing.
    const writes: Array<[string, string]> = [];
    for (const [file, text] of result.files) {
      const problem = relativePathProblem(file);
      if (problem !== undefined)
        throw new ArdsiteError('FILE_WRITE_REFUSED', `${file} cannot be written: ${problem}`);
      const target = path.join(root, file);
      const existing = await readFile(target, 'utf8').catch(() => undefined);
      if (existing === undefined) writes.push([target, text]);
      else if (file.startsWith('content/agents/') || file.startsWith('content/entries/'))
        throw new ArdsiteError(
          'IMPORT_SLUG_TAKEN',
          `${file} exists: the project has ${result.kind === 'agent' ? 'an agent' : 'an entry'} ${result.slug} already; choose another --slug`,
        );
      else if (existing !== text)
        process.stdout.write(`kept ${file} as it is (it exists); compare it with the card's resource\n`);
    }
    for (const [target, text] of writes) {
      const file = path.relative(root, target).split(path.sep).join('/');
      // Names chosen from the card: written inside the project only, never through a link, never over a file.
      if (writeContained(root, file, text, { exclusive: true }) === 'exists')
        throw new ArdsiteError('IMPORT_SLUG_TAKEN', `${file} appeared while importing; nothing more written`);
      process.stdout.write(`wrote ${file}\n`);
    }
    // The card chose its field names and values: their control characters are shown, not obeyed.
    for (const n of result.changed)
      process.stdout.write(terminalText(`changed  ${n.field}: ${n.reason}`) + '\n');
    for (const n of result.dropped)
      process.stdout.write(terminalText(`dropped  ${n.field}: ${n.reason}`) + '\n');
    for (const w of result.warnings) process.stderr.write(terminalText(`warning  ${w}`) + '\n');
    const next = `Next: npm run check -- --root ${shellWord(values.root)}`;
    process.stdout.write(
      result.kind === 'entry'
        ? `listed ${result.slug} as another publisher's entry (not signed by you). ${next}\n`
        : `imported ${result.slug}: ${result.changed.length} changed, ${result.dropped.length} dropped. ${next}\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof ArdsiteError)) throw error;
    process.stderr.write(`${terminalText(error.message)} [${error.code}]\n`);
    return 1;
  }
}
