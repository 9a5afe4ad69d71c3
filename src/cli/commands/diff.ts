/**
 * `ardsite diff <old> <new>`: the RAM and permission changes between two sites (DESIGN.md §9
 * "Releases"; docs/releases.md), each a built folder or a site URL read with verify's network rules
 * (TLS, size cap, timeout, no private addresses unless --allow-private, --resolve host=URL). Entries are
 * matched by identifier; added and removed entries are listed. Sentences by default, `--json` for machines.
 * Another publisher's entry whose card a side cannot read from there (another origin than a folder's) is
 * not compared, and the report says so (`notCompared`); it is not an error. Exit 0 nothing gained access,
 * 1 some entry gained access (added or widened), 2 a side cannot be read (its manifest, or a card of its
 * own agents: also one on another origin than a folder's).
 *
 * Options: --json, --origin-old URL / --origin-new URL (a folder's origin; default the did:web domain of
 * its .well-known/did.json, else https://<the domain most of its entries' URNs name>), --resolve host=URL
 * (repeatable), --allow-private, --max-bytes N, --timeout MS (each request), --deadline S (the whole run,
 * default 300 s, as verify's: then exit 2, naming what was not read), --max-entries N (a side listing more
 * is not read, exit 2; default 100,000, as verify's).
 *
 * `runDiff` (src/cli/run.ts) is exported so tests can run the command in-process.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ENGLISH_WORDS } from '../../core/pages/words.js';
import { byImportance } from '../../core/releases/compare.js';
import {
  diffSides,
  originFromManifest,
  readDiffSide,
  SideUnreadable,
  type DiffSide,
  type EntryDiff,
} from '../../core/diff/site-diff.js';
import { Deadline, DEFAULT_DEADLINE_S, DEFAULT_MAX_ENTRIES } from '../../core/verify/deadline.js';
import { originFromDidDocument } from '../../core/verify/folder-origin.js';
import { folderReader } from '../../core/verify/folder-reader.js';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_TIMEOUT_MS,
  httpReader,
  parseResolve,
} from '../../core/verify/http-reader.js';
import { MANIFEST_PATH } from '../../core/ard/well-known.js';
import { terminalText } from '../../core/util/terminal-text.js';
import { shownFolder } from '../lib/shown-folder.js';

/** Where the command writes: the process's streams, or a test's buffers. */
export interface DiffOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

interface SideOptions {
  origin?: string;
  resolve: readonly string[];
  allowPrivate: boolean;
  maxBytes: number;
  timeoutMs: number;
  maxEntries: number;
  /** The whole run's deadline: every read of both sides is bound by it. */
  deadline: Deadline;
}

async function readSide(target: string, options: SideOptions): Promise<DiffSide> {
  if (/^https?:\/\//i.test(target)) {
    const url = new URL(target);
    const reader = httpReader({
      resolve: parseResolve(options.resolve),
      allowPrivate: options.allowPrivate,
      maxBytes: options.maxBytes,
      timeoutMs: options.timeoutMs,
    });
    return readDiffSide(
      options.deadline.bound(reader),
      new URL(MANIFEST_PATH, url.origin).href,
      options.maxEntries,
    );
  }
  const folder = path.resolve(target);
  if (!(await stat(folder).catch(() => undefined))?.isDirectory())
    throw new SideUnreadable(`${target} is not a folder or an https URL`);
  // The folder's origin: the did:web its own did.json names, else the domain most of its entries name.
  let origin = options.origin ?? (await originFromDidDocument(folder));
  if (!origin) {
    try {
      origin = originFromManifest(JSON.parse(await readFile(path.join(folder, MANIFEST_PATH), 'utf8')));
    } catch (error) {
      throw new SideUnreadable(
        `cannot read ${path.join(target, MANIFEST_PATH)}: ${(error as Error).message}`,
      );
    }
    if (!origin) throw new SideUnreadable(`${target}: no entry names a domain; give its --origin`);
  }
  const base = new URL(origin).origin;
  return readDiffSide(
    options.deadline.bound(folderReader(folder, base, { maxBytes: options.maxBytes })),
    `${base}${MANIFEST_PATH}`,
    options.maxEntries,
  );
}

function versions(d: EntryDiff): string {
  if (d.status === 'added') return `added${d.versionAfter ? ` (version ${d.versionAfter})` : ''}`;
  if (d.status === 'removed') return `removed${d.versionBefore ? ` (was version ${d.versionBefore})` : ''}`;
  const from = d.versionBefore ?? 'no version';
  const to = d.versionAfter ?? 'no version';
  return from === to ? `version ${to}` : `version ${from} → ${to}`;
}

/** A side as the summary line names it: a site URL as given, a folder as scripts/lib/shown-folder.ts shows it. */
function sideLabel(target: string): string {
  return /^https?:\/\//i.test(target) ? target : shownFolder(path.resolve(target));
}

/**
 * The report in sentences: one block per entry that changed or was not compared (with why), then a
 * summary line that names the two sides (`old → new`).
 */
function sentences(diffs: readonly EntryDiff[], sides: readonly [string, string]): string {
  const lines: string[] = [];
  for (const d of diffs) {
    if (d.notCompared !== undefined) {
      lines.push(`${d.identifier}: ${versions(d)} — not compared`, `  ! ${d.notCompared}`);
      continue;
    }
    if (d.status === 'unchanged') continue;
    const mark = d.gainedAccess ? ' — gained access' : '';
    lines.push(`${d.identifier}: ${versions(d)}${mark}`);
    for (const c of byImportance(d.changes)) {
      if (c.item === 'operation') continue;
      lines.push(
        `  ${c.kind === 'added' || c.kind === 'widened' ? '+' : c.kind === 'reworded' ? '~' : '-'} ${ENGLISH_WORDS.changes.sentence(c)}`,
      );
    }
  }
  const gained = diffs.filter((d) => d.gainedAccess).length;
  const changed = diffs.filter((d) => d.status !== 'unchanged').length;
  const skipped = diffs.filter((d) => d.notCompared !== undefined).length;
  const compared = diffs.length - skipped;
  lines.push(
    `${sides[0]} → ${sides[1]}: ${compared} ${compared === 1 ? 'entry' : 'entries'} compared, ${skipped > 0 ? `${skipped} not compared, ` : ''}${changed} changed, ${gained} gained access.`,
  );
  // Identifiers, names and scopes come from the two sites: their control characters are shown, not obeyed.
  return `${lines.map(terminalText).join('\n')}\n`;
}

/** The options of `ardsite diff` (src/cli/program.ts declares them; numbers as typed, checked here). */
export interface DiffCommandOptions {
  json: boolean;
  /** The old side's origin, for a folder. */
  originOld?: string;
  /** The new side's origin, for a folder. */
  originNew?: string;
  /** `--resolve host=URL`, repeatable. */
  resolve: string[];
  allowPrivate: boolean;
  maxBytes?: string;
  timeout?: string;
  /** The whole run's limit, in seconds. */
  deadline?: string;
  maxEntries?: string;
}

/**
 * `ardsite diff <old> <new>` with the parsed `values`, writing to `out`; returns the exit code as
 * `runDiff` (src/cli/run.ts) gives it.
 */
export async function diffCommand(
  positionals: readonly [string, string],
  values: DiffCommandOptions,
  out: DiffOutput,
): Promise<number> {
  const positive = (v: string | undefined, fallback: number) => {
    const n = v === undefined ? fallback : Number(v);
    if (!Number.isInteger(n) || n <= 0)
      throw new SideUnreadable(`expected a positive whole number, got "${v}"`);
    return n;
  };
  let diffs: EntryDiff[];
  let deadline: Deadline | undefined;
  try {
    const seconds = values.deadline === undefined ? DEFAULT_DEADLINE_S : Number(values.deadline);
    if (!(Number.isFinite(seconds) && seconds > 0) || values.deadline?.trim() === '')
      throw new SideUnreadable(`--deadline expects a positive number of seconds, got "${values.deadline}"`);
    deadline = new Deadline(Date.now() + seconds * 1000);
    const common = {
      resolve: values.resolve,
      allowPrivate: values.allowPrivate,
      maxBytes: positive(values.maxBytes, DEFAULT_MAX_BYTES),
      timeoutMs: positive(values.timeout, DEFAULT_TIMEOUT_MS),
      maxEntries: positive(values.maxEntries, DEFAULT_MAX_ENTRIES),
      deadline,
    };
    const [before, after] = await Promise.all([
      readSide(positionals[0]!, {
        ...common,
        ...(values.originOld ? { origin: values.originOld } : {}),
      }),
      readSide(positionals[1]!, {
        ...common,
        ...(values.originNew ? { origin: values.originNew } : {}),
      }),
    ]);
    // A pinned document cut short is read as absent: a run that passed its deadline compares nothing.
    if (deadline.expired)
      throw new SideUnreadable(
        `the deadline of ${seconds} s (--deadline) passed before both sides were read`,
      );
    diffs = diffSides(before, after);
  } catch (error) {
    out.stderr.write(`diff: ${terminalText((error as Error).message)} [DIFF_UNREADABLE]\n`);
    return 2;
  } finally {
    deadline?.dispose();
  }
  if (values.json) {
    const gained = diffs.some((d) => d.gainedAccess);
    out.stdout.write(`${JSON.stringify({ gainedAccess: gained, entries: diffs }, null, 2)}\n`);
  } else out.stdout.write(sentences(diffs, [sideLabel(positionals[0]!), sideLabel(positionals[1]!)]));
  return diffs.some((d) => d.gainedAccess) ? 1 : 0;
}
