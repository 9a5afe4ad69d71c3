/**
 * Reading content files within the jail and the limits (DESIGN.md §9): {@link ContentReader} reads a
 * file only when it resolves inside the project and is small enough, and {@link parseYamlInto} /
 * {@link parseJsonInto} parse it, checking depth and text sizes, every fault a diagnostic with its line.
 */
import path from 'node:path';
import { formatPath, type Diagnostic } from '../util/errors.js';
import { outsideMessage, placeInJail, type Jail } from '../project/project-jail.js';
import { boundDiagnostics, DEFAULT_LIMITS, formatBytes, type ContentLimits } from './bounds.js';
import { jsonDepthExceeded } from '../util/json.js';
import { invalidJsonDiagnostic } from '../util/json-position.js';
import { SourceDoc } from '../model/source.js';
import { isFileSystemError, readRegularFile } from '../project/regular-file.js';

/** Project-relative path with forward slashes, for messages. */
export function rel(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

/**
 * Reads content files and reports failures as diagnostics, one file at a time and synchronously, in the
 * order the loader asks for them, so merges and diagnostics stay deterministic. Synchronous on purpose
 * (measured: docs/benchmarks-archive.md, "Build at the floor"): content files are small and read once, and a
 * promise per `stat`, `open`, `read` and `close` costs the main thread far more than reading them this
 * way; one file is open at a time, so no open-file limit is
 * ever near. Before a file is read it must resolve, after symbolic links, inside the project (or an
 * `allowOutside` folder: `FILE_OUTSIDE_PROJECT`) and be at most `limits.fileBytes` long
 * (`FILE_TOO_LARGE`), so that neither a link to `/etc/passwd` nor a 100 MB file is ever read.
 */
export class ContentReader {
  /** The limits in force: the defaults until publisher.yaml is read, then its `limits:`. */
  limits: ContentLimits = DEFAULT_LIMITS;
  /** The jail in force: the project root and the operator's `ARDSITE_ALLOW_OUTSIDE` folders (src/core/trust/operator-trust.ts). */
  jail: Jail;
  constructor(
    readonly root: string,
    readonly diagnostics: Diagnostic[],
  ) {
    this.jail = { root };
  }

  private load(file: string): string | Diagnostic {
    const shown = rel(this.root, file);
    const place = placeInJail(file, this.jail);
    if (place.state === 'missing') {
      return { code: 'FILE_MISSING', severity: 'error', message: 'file does not exist', file: shown };
    }
    if (place.state === 'outside') {
      return {
        code: 'FILE_OUTSIDE_PROJECT',
        severity: 'error',
        message: `${outsideMessage(shown, place.real)}; it was not read`,
        file: shown,
      };
    }
    try {
      const read = readRegularFile(place.real, this.limits.fileBytes);
      // A FIFO or a device would block the read (or never end): only regular files are content.
      if (read.kind === 'not-regular') {
        return {
          code: 'FILE_UNREADABLE',
          severity: 'error',
          message: 'cannot read file (it is not a regular file)',
          file: shown,
        };
      }
      if (read.kind === 'too-large') {
        return {
          code: 'FILE_TOO_LARGE',
          severity: 'error',
          message: `this file is ${formatBytes(read.size)}; the limit is ${formatBytes(this.limits.fileBytes)} (limits.fileBytes in content/publisher.yaml), so it was not read`,
          file: shown,
        };
      }
      return read.bytes.toString('utf8');
    } catch (error) {
      if (!isFileSystemError(error)) throw error;
      // The file system's code only: its message could carry more than the path.
      return {
        code: 'FILE_UNREADABLE',
        severity: 'error',
        message: `cannot read file (${error.code})`,
        file: shown,
      };
    }
  }

  /**
   * The text of `file`, or undefined after reporting why it was not read. With `at`, the finding is
   * placed on the field that named the file (an agent's `ramFile`), naming the file in its message.
   */
  async read(
    file: string,
    at?: { source: SourceDoc; path: PropertyKey[]; label: string },
  ): Promise<string | undefined> {
    const outcome = this.load(file);
    if (typeof outcome === 'string') return outcome;
    if (!at) {
      this.diagnostics.push(outcome);
      return undefined;
    }
    const message =
      outcome.code === 'FILE_MISSING'
        ? `${at.label} ${outcome.file}, which does not exist`
        : outcome.code === 'FILE_OUTSIDE_PROJECT'
          ? `${at.label} ${outcome.message}`
          : `${at.label} ${outcome.file}: ${outcome.message}`;
    this.diagnostics.push(
      at.source.diagnostic(
        { code: outcome.code, severity: 'error', message, path: formatPath(at.path) },
        at.path,
      ),
    );
    return undefined;
  }
}

/**
 * Parses YAML (a file, or front matter starting at `lineOffset`) and checks it against `limits`;
 * returns the document, or undefined after reporting every fault. A nesting too deep for the parsers
 * themselves (`RangeError`) is reported as `CONTENT_TOO_DEEP`, never thrown.
 */
export function parseYamlInto(
  file: string,
  text: string,
  diagnostics: Diagnostic[],
  limits: ContentLimits,
  lineOffset = 0,
) {
  const tooDeep = `this document is nested too deeply to be read (limits.depth in content/publisher.yaml is ${limits.depth})`;
  let parsed: SourceDoc | Diagnostic[];
  try {
    parsed = SourceDoc.parseYaml(file, text, lineOffset);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    diagnostics.push({
      code: 'CONTENT_TOO_DEEP',
      severity: 'error',
      message: tooDeep,
      file,
    });
    return undefined;
  }
  if (Array.isArray(parsed)) {
    // The `yaml` library reports its own stack overflow as a syntax error: it is the nesting.
    diagnostics.push(
      ...parsed.map((d) =>
        /call stack/i.test(d.message) ? { ...d, code: 'CONTENT_TOO_DEEP' as const, message: tooDeep } : d,
      ),
    );
    return undefined;
  }
  // Too deep a document stops here; too long a text is reported, and the file still read, so that the
  // files it names (an agent's ramFile) are checked in the same run.
  const beyond = boundDiagnostics(parsed, limits);
  diagnostics.push(...beyond);
  return beyond.some((d) => d.code === 'CONTENT_TOO_DEEP') ? undefined : parsed;
}

/**
 * `JSON.parse` of a ramFile within `limits`: the nesting is measured on the text first (so the parser
 * never recurses past `limits.depth`), then every text. Messages never quote the file's bytes. A text
 * `JSON.parse` refuses (RFC 8259) is `JSON_INVALID` at the line and column of its first error
 * (../json-position.ts `invalidJsonDiagnostic`), or at the file alone when that cannot be placed.
 * @returns the document, or undefined after reporting `CONTENT_TOO_DEEP`, `JSON_INVALID` or `TEXT_TOO_LONG`.
 */
export function parseJsonInto(
  file: string,
  text: string,
  diagnostics: Diagnostic[],
  limits: ContentLimits,
): SourceDoc | undefined {
  const deep = jsonDepthExceeded(text, limits.depth);
  if (deep) {
    diagnostics.push({
      code: 'CONTENT_TOO_DEEP',
      severity: 'error',
      message: `lists and objects are nested more than ${limits.depth} levels deep here (limits.depth in content/publisher.yaml)`,
      file,
      ...deep,
    });
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // V8's message quotes the input ("Unexpected token 'r', "root:x:0:0"... is not valid JSON"): only
    // the place of the error is passed on.
    diagnostics.push(invalidJsonDiagnostic(file, text, error));
    return undefined;
  }
  const source = SourceDoc.fromJson(file, text, json);
  const beyond = boundDiagnostics(source, limits);
  diagnostics.push(...beyond);
  return beyond.some((d) => d.code === 'CONTENT_TOO_DEEP') ? undefined : source;
}
