/**
 * `check()`: the content checks of a project as a result (ARD draft §3 entries, the RAM proposal's
 * resources and accesses, A2A §5 cards): every diagnostic of every file of `content/` in one run, and the
 * site's counts. Nothing is written, printed or exited.
 */
import { loadAndCheck } from '../content/index.js';
import type { Diagnostic } from '../util/errors.js';

/** What {@link check} found. */
export interface CheckResult {
  /** Agent files (an agent with errors still counts). */
  agents: number;
  resources: number;
  /** Manifest entries. */
  entries: number;
  errors: number;
  warnings: number;
  /** Every error and warning, each naming its file, field path and line where known. */
  diagnostics: Diagnostic[];
  /** False when `content/publisher.yaml` is unusable: the other files were then checked one by one. */
  site: boolean;
}

/**
 * Checks the content of the project at `options.root` (absolute); with `options.publishedDir`, also that no
 * release history lost what that published site holds (RELEASE_HISTORY_LOST); the operator's variables are
 * read from `options.env`, never from `process.env` when it is given. Never throws for bad content:
 * that is in the result's diagnostics.
 * @throws Error only for an unreadable project folder.
 */
export async function check(options: {
  root: string;
  /** A site already published (a build's output folder): a release history that lost a version is an error. */
  publishedDir?: string;
  /**
   * The operator's environment (default `process.env`): `ARDSITE_ALLOW_OUTSIDE`, `ARDSITE_TRUSTED_KEYS`,
   * `ARDSITE_SIGNING_KEY_FILE` (src/core/trust/operator-trust.ts).
   */
  env?: NodeJS.ProcessEnv;
}): Promise<CheckResult> {
  const { model, diagnostics } = await loadAndCheck({
    root: options.root,
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.publishedDir === undefined ? {} : { publishedDir: options.publishedDir }),
  });
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return {
    agents: model?.agentFiles.length ?? 0,
    resources: model?.resources.size ?? 0,
    entries: model?.entries.length ?? 0,
    errors,
    warnings: diagnostics.length - errors,
    diagnostics,
    site: model !== undefined,
  };
}
