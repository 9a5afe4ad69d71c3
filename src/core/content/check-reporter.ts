/**
 * Where the content checks (./checks.ts, ./other-entry-checks.ts) collect what they find: one diagnostic per
 * finding, at a file, a field path and, through the source document, a line (DESIGN.md §5).
 */
import { formatPath, type Diagnostic, type ErrorCode, type Severity } from '../util/errors.js';
import type { SourceDoc } from '../model/source.js';

/** Collects the diagnostics of one run of the content checks, in the order they are found. */
export class Reporter {
  readonly diagnostics: Diagnostic[] = [];
  add(
    source: SourceDoc,
    path: readonly PropertyKey[],
    code: ErrorCode,
    message: string,
    severity: Severity = 'error',
  ) {
    // A finding about a whole document (an entry, an agent) still names a path, as issues.ts does.
    this.diagnostics.push(
      source.diagnostic({ code, severity, message, path: formatPath(path) || '(document)' }, path),
    );
  }
}
