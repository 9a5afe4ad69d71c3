/**
 * The ARD conformance tool itself (ards-project/ard-spec's `conformance/bin/conformance-test`, copied
 * unchanged into test/vendor/ard-conformance/, see its README.md), run the way a publisher or a registry
 * operator runs it: a Python 3 process over a file or a base URI. Its verdict is its exit code and the
 * lines it prints (`✗` an error, `⚠` a warning); nothing of ardsite is in the loop.
 */
import { execFile, execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './site.js';

/** The tool's script; it reads the schema from `../../spec/schemas/ai-catalog.schema.json` beside it. */
export const CONFORMANCE_TOOL = path.join(
  REPO_ROOT,
  'test/vendor/ard-conformance/conformance/bin/conformance-test',
);

let python: string | undefined;

/**
 * A Python 3 that can import `jsonschema`, without which the tool skips its strict schema check: the first
 * of `$ARDSITE_TEST_PYTHON`, `python3` and `/usr/bin/python3` that has it (.ci/run installs Debian's
 * `python3-jsonschema` when none has).
 * @throws Error naming what to install when none has it (the test fails; it is never skipped).
 */
export function conformancePython(): string {
  if (python) return python;
  const candidates = [process.env.ARDSITE_TEST_PYTHON, 'python3', '/usr/bin/python3'].filter(
    (c): c is string => typeof c === 'string' && c !== '',
  );
  for (const candidate of candidates) {
    try {
      execFileSync(candidate, ['-c', 'import jsonschema'], { stdio: 'ignore' });
      python = candidate;
      return candidate;
    } catch {
      // not there, or without jsonschema: try the next one
    }
  }
  throw new Error(
    `No Python 3 with the jsonschema package (tried ${candidates.join(', ')}): the ARD conformance tool needs it for its strict schema check. Install it (Debian: apt-get install python3-jsonschema; else pip install jsonschema) or name one in ARDSITE_TEST_PYTHON.`,
  );
}

/** What one run of the tool said. */
export interface ConformanceVerdict {
  /** Its exit code: 0 for "CONFORMANCE STATUS: PASS". */
  code: number;
  /** Everything it printed, colour codes removed. */
  output: string;
  /** The lines it marked as errors (`✗ …`), without the mark. */
  errors: string[];
  /** The lines it marked as warnings (`⚠ …`), without the mark. */
  warnings: string[];
}

const ANSI = new RegExp(String.raw`\u001b\[[0-9;]*m`, 'g');

/**
 * Runs `conformance-test <args>` (e.g. `['manifest', file]`, `['registry', baseUri]`) and returns its
 * verdict. The proxy variables are left out of its environment, so that Python's urllib talks to a
 * loopback server directly. Never throws for a failing verdict; throws when Python cannot be started or
 * the tool runs over 60 s.
 */
export function runConformanceTool(args: readonly string[]): Promise<ConformanceVerdict> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/_proxy$/i.test(k)));
  return new Promise((resolve, reject) => {
    execFile(
      conformancePython(),
      [CONFORMANCE_TOOL, ...args],
      { env, timeout: 60_000, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error ? error.code : 0;
        if (typeof code !== 'number') {
          reject(error ?? new Error('the conformance tool did not run'));
          return;
        }
        const output = `${stdout}${stderr}`.replace(ANSI, '');
        const marked = (mark: string) =>
          output
            .split('\n')
            .map((line) => line.trim())
            .filter((line) => line.startsWith(`${mark} `))
            .map((line) => line.slice(mark.length + 1));
        resolve({ code, output, errors: marked('✗'), warnings: marked('⚠') });
      },
    );
  });
}
