/**
 * `npm run import -- <card file or https URL> [--root <project>] [--slug <slug>]`: turns an existing
 * A2A AgentCard into `content/agents/<slug>.md` and `content/resources/*.yaml` for its RAM
 * (src/core/import/import-card.ts), and lists what it dropped or changed and why. A URL is read with the
 * verifier's network reader (src/core/verify/http-reader.ts): https only, no private addresses (unless
 * `--allow-private`), a 1 MiB cap and a timeout; `--resolve host=URL` as for verify and pin. Never overwrites a file that exists with other content. Exit 0 imported, 1 refused,
 * 2 bad usage.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { relativePathProblem, writeContained } from '../src/core/contained-write.js';
import path from 'node:path';
import { ArdsiteError } from '../src/core/errors.js';
import { importAgentCard } from '../src/core/import/import-card.js';
import { jsonErrorPlace } from '../src/core/json-position.js';
import { httpReader, parseResolve } from '../src/core/verify/http-reader.js';
import { parseCommandLine, projectFolder } from './lib/args.js';
import { shellWord } from '../src/core/shell-word.js';
import { terminalText } from '../src/core/terminal-text.js';

/** Largest card read, in bytes: a card is a few kilobytes; this bounds a hostile answer. */
const MAX_CARD_BYTES = 1024 * 1024;

const usage =
  'usage: npm run import -- <card file or https URL> [--root <project folder>] [--slug <slug>] [--resolve host=http://127.0.0.1:PORT] [--allow-private]';
const { values, positionals } = parseCommandLine(
  {
    allowPositionals: true,
    options: {
      root: { type: 'string', default: process.cwd() },
      slug: { type: 'string' },
      /** host=URL: read https://host/… from that server instead (tests, a card not yet deployed). */
      resolve: { type: 'string', multiple: true, default: [] },
      'allow-private': { type: 'boolean', default: false },
    },
  },
  usage,
);
if (positionals.length !== 1) {
  process.stderr.write(`${usage}\n`);
  process.exit(2);
}
const from = positionals[0]!;
const root = projectFolder(values.root!);

async function readCard(): Promise<string> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(from)) {
    if (!/^https:\/\//i.test(from))
      throw new ArdsiteError('IMPORT_NOT_A_CARD', `${from}: a card is read over https only`);
    const reader = httpReader({
      maxBytes: MAX_CARD_BYTES,
      resolve: parseResolve(values.resolve ?? []),
      allowPrivate: values['allow-private'],
    });
    const doc = await reader.read(from).catch((error: unknown) => {
      throw new ArdsiteError('IMPORT_NOT_A_CARD', `${from} could not be read: ${(error as Error).message}`);
    });
    if (!doc) throw new ArdsiteError('IMPORT_NOT_A_CARD', `${from} could not be read`);
    return new TextDecoder().decode(doc.bytes);
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
  return text.toString('utf8');
}

try {
  if (!existsSync(path.join(root, 'content')))
    throw new ArdsiteError(
      'IMPORT_NOT_A_CARD',
      `${root} has no content/ folder: make a project with npm run new first, or pass --root`,
    );
  const text = (await readCard()).replace(/^\uFEFF/, '');
  let card: unknown;
  try {
    card = JSON.parse(text);
  } catch (error) {
    const at = jsonErrorPlace(text, error);
    throw new ArdsiteError('IMPORT_NOT_A_CARD', `${from} is not JSON${at}: ${(error as Error).message}`);
  }
  const result = importAgentCard(card, { source: from, ...(values.slug ? { slug: values.slug } : {}) });
  // Every file is checked before any is written: an import is all or nothing.
  const writes: Array<[string, string]> = [];
  for (const [file, text] of result.files) {
    const problem = relativePathProblem(file);
    if (problem !== undefined)
      throw new ArdsiteError('FILE_WRITE_REFUSED', `${file} cannot be written: ${problem}`);
    const target = path.join(root, file);
    const existing = await readFile(target, 'utf8').catch(() => undefined);
    if (existing === undefined) writes.push([target, text]);
    else if (file.startsWith('content/agents/'))
      throw new ArdsiteError(
        'IMPORT_SLUG_TAKEN',
        `${file} exists: the project has an agent ${result.slug} already; choose another --slug`,
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
  process.stdout.write(
    `imported ${result.slug}: ${result.changed.length} changed, ${result.dropped.length} dropped. Next: npm run check -- --root ${shellWord(values.root!)}\n`,
  );
} catch (error) {
  if (!(error instanceof ArdsiteError)) throw error;
  process.stderr.write(`${terminalText(error.message)} [${error.code}]\n`);
  process.exitCode = 1;
}
