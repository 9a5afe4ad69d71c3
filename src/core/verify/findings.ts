/**
 * What the verifier records (./site.ts): one finding per check that did not hold, a count of the checks
 * that held, and the state one run's checks share.
 */
import { ArdsiteError, type ErrorCode } from '../util/errors.js';
import type { DocumentCache } from './documents.js';
import type { SiteReader } from './reader.js';

/** One finding of the verifier. `subject` names what was checked (an identifier or a URL). */
export interface VerifyFinding {
  code: ErrorCode;
  severity: 'error' | 'warning';
  subject: string;
  message: string;
}

/**
 * The findings of one entry (or of the site-wide checks): `passed` counts the checks that held, `list`
 * holds a finding per check that did not, in the order the checks ran.
 */
export class Findings {
  passed = 0;
  readonly list: VerifyFinding[] = [];
  fail(subject: string, code: ErrorCode, message: string): void {
    this.list.push({ code, severity: 'error', subject, message });
  }
  warn(subject: string, code: ErrorCode, message: string): void {
    this.list.push({ code, severity: 'warning', subject, message });
  }
  pass(): void {
    this.passed++;
  }
  /** Runs one check; a thrown ArdsiteError becomes a failure with its code. */
  async check(subject: string, fallback: ErrorCode, fn: () => Promise<void> | void): Promise<boolean> {
    try {
      await fn();
      this.pass();
      return true;
    } catch (error) {
      const code = error instanceof ArdsiteError ? error.code : fallback;
      this.fail(subject, code, (error as Error).message);
      return false;
    }
  }
}

/** What one run's checks share: the reader, the run's documents, the origin, the time, the findings. */
export interface RunContext {
  reader: SiteReader;
  cache: DocumentCache;
  origin: string;
  now: Date;
  f: Findings;
}
