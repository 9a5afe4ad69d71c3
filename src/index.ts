/**
 * ardsite's programmatic API (`import { build, check, verify, diff } from 'ardsite'`): each function
 * takes its options, reports progress through one event sink where it has any, and returns its result or
 * throws an ArdsiteError (with a stable `code` and the content's diagnostics); none prints or exits. The
 * `ardsite` command line (src/cli/main.ts) is built on the same modules.
 */
export { build, type BuildOptions, type BuildResult } from './core/build/pipeline.js';
export { check, type CheckResult } from './core/build/check.js';
export { verify, type VerifyOptions, type VerifyReport } from './core/verify/verify-folder.js';
export { diff } from './core/diff/diff-folders.js';
export type { EntryDiff } from './core/diff/site-diff.js';
export type { BuildEvent, EventSink } from './core/build/events.js';
export { ArdsiteError, formatDiagnostic, type Diagnostic, type ErrorCode } from './core/util/errors.js';
export type { VerifyFinding } from './core/verify/findings.js';
export { appRoot, ardsiteVersion } from './core/project/app-root.js';
