/**
 * `verify()`: a built site's folder checked as a crawler would check it served at its origin (ARD draft
 * §3.5 manifest signature and digests, A2A §8.4 card signatures, did:web keys), returned as a report. The
 * same checks as `ardsite verify <folder>`, in the calling thread; nothing is printed.
 */
import { Deadline } from './deadline.js';
import { discoverManifest } from './discovery.js';
import type { VerifyFinding } from './findings.js';
import { originFromDidDocument } from './folder-origin.js';
import { folderReader } from './folder-reader.js';
import { DEFAULT_MAX_BYTES } from './http-reader.js';
import { ArdsiteError } from '../util/errors.js';

/** Inputs of {@link verify}. */
export interface VerifyOptions {
  /** Absolute path of the built site (a build's output folder). */
  folder: string;
  /** The origin it is served at (`https://agents.example.com`); default the did:web of its did.json. */
  origin?: string;
  /** Most manifest entries read (default 100,000). */
  maxEntries?: number;
  /** The whole run's time limit, in milliseconds (default 300,000). */
  deadlineMs?: number;
}

/** What {@link verify} found. */
export interface VerifyReport {
  origin: string;
  manifestUrl: string;
  entries: number;
  passed: number;
  /** Findings of severity `error`. */
  failed: number;
  warnings: number;
  findings: VerifyFinding[];
}

/**
 * Verifies the built site in `options.folder`. A failed check is a finding of the report, not an error.
 * @throws ArdsiteError `VERIFY_UNREADABLE` when the folder names no origin (no `options.origin`, no
 *   did.json) or its manifest cannot be found or read.
 */
export async function verify(options: VerifyOptions): Promise<VerifyReport> {
  const given = options.origin ?? (await originFromDidDocument(options.folder));
  if (!given)
    throw new ArdsiteError(
      'VERIFY_UNREADABLE',
      `${options.folder}: no origin given and no .well-known/did.json naming its did:web`,
    );
  const origin = new URL(given).origin;
  const reader = folderReader(options.folder, origin, { maxBytes: DEFAULT_MAX_BYTES });
  const at = Date.now() + (options.deadlineMs ?? 300_000);
  const { verifySite } = await import('./site.js');
  const deadline = new Deadline(at);
  let discovery;
  try {
    discovery = await discoverManifest(deadline.bound(reader), origin, undefined);
  } catch (error) {
    throw new ArdsiteError('VERIFY_UNREADABLE', `could not read the site: ${(error as Error).message}`);
  } finally {
    deadline.dispose();
  }
  const report = await verifySite(reader, {
    origin,
    manifestUrl: discovery.manifestUrl,
    maxEntries: options.maxEntries ?? 100_000,
    deadline: at,
  });
  const findings = [...discovery.findings, ...report.findings];
  const failed = findings.filter((f) => f.severity === 'error').length;
  return {
    origin,
    manifestUrl: discovery.manifestUrl,
    entries: report.entries,
    passed: report.passed + discovery.passed,
    failed,
    warnings: findings.length - failed,
    findings,
  };
}
