/**
 * The build's verification of its own output, read back from disk (DESIGN.md §4): the same verifier a
 * crawler runs (`src/core/verify/site.ts`) over the temporary folder, plus a byte comparison of every
 * artifact with what the build computed.
 */
import { readFile } from 'node:fs/promises';
import { mapLimit } from '../concurrency.js';
import { sha256Digest } from '../trust/digest.js';
import { assertNoPrivateKeyBytes } from '../trust/key-guards.js';
import { ArdsiteError, type ErrorCode } from '../errors.js';
import type { SiteBuild } from '../site-build.js';
import type { VerifyFinding } from '../verify/findings.js';
import { folderReader } from '../verify/folder-reader.js';
import { verifySite, type VerifyReport } from '../verify/site.js';
import { artifactFile, type WrittenArtifact } from './output.js';

/**
 * Warnings of the verifier that fail a build: what ARD and A2A leave optional and ardsite always writes
 * (DESIGN.md §3, §4), so that their absence in its own output is a fault of the build.
 */
const ARDSITE_PROFILE: ReadonlySet<ErrorCode> = new Set([
  'CARD_UNSIGNED',
  'CARD_PARTLY_SIGNED',
  'CARD_ENTRY_UNDECLARED',
  'JSON_BOM',
  'WELL_KNOWN_CARD_UNLISTED',
  'AI_CATALOG_MISMATCH',
  'AI_CATALOG_SIGNATURE_UNBOUND',
]);

/**
 * The findings of a verification that fail the build: every error, and the warnings of
 * {@link ARDSITE_PROFILE} (`CARD_UNSIGNED`, `CARD_PARTLY_SIGNED`, `CARD_ENTRY_UNDECLARED`, `JSON_BOM`,
 * `WELL_KNOWN_CARD_UNLISTED`, `AI_CATALOG_MISMATCH`, `AI_CATALOG_SIGNATURE_UNBOUND`).
 */
export function selfCheckFailures(findings: readonly VerifyFinding[]): VerifyFinding[] {
  return findings.filter((f) => f.severity === 'error' || ARDSITE_PROFILE.has(f.code));
}

/** Options of {@link selfCheck}. */
export interface SelfCheckOptions {
  /** The time expiry is checked against (default now). */
  now?: Date;
  /**
   * What `writeArtifacts` wrote (URL path → digest and size), when the build no longer holds the bytes
   * (scripts/build.ts writes them before rendering and lets them go). Default: `site.artifacts`.
   */
  written?: ReadonlyMap<string, WrittenArtifact>;
  /**
   * The private key's byte patterns (`privateKeyPatterns` of src/core/trust/key-guards.ts): every file under
   * `outDir` is searched for them first.
   */
  keyPatterns?: readonly Buffer[];
}

/**
 * Verifies the folder `outDir` as the site of `site`: every artifact's file holds what the build
 * computed (byte for byte, or by sha256 digest when only `options.written` is known), and the verifier
 * of `npm run verify` passes, without the warnings that mean ardsite's own profile does not hold (an
 * unsigned card, a card that does not name its entry, a well-known card that is no entry's). Returns
 * the report when every check holds.
 * @throws ArdsiteError `KEY_PRIVATE_PUBLISHED` naming the files that hold the private key (see
 *   {@link SelfCheckOptions.keyPatterns}); `BUILD_SELF_CHECK_FAILED` listing what else failed.
 */
export async function selfCheck(
  outDir: string,
  site: SiteBuild,
  options: SelfCheckOptions = {},
): Promise<VerifyReport> {
  const now = options.now ?? new Date();
  // First and whatever else holds: no file of the site may carry the private key.
  await assertNoPrivateKeyBytes(outDir, options.keyPatterns ?? []);
  const origin = site.model.publisher.siteUrl.replace(/\/$/, '');
  const problems: string[] = [];
  const expected: Array<[string, (bytes: Buffer) => boolean]> = options.written
    ? [...options.written].map(([p, w]) => [p, (bytes) => sha256Digest(bytes) === w.digest])
    : [...site.artifacts.values()].map((a) => [a.path, (bytes) => Buffer.from(a.bytes).equals(bytes)]);
  const differs = await mapLimit(expected, 32, async ([urlPath, holds]) => {
    const bytes = await readFile(artifactFile(outDir, urlPath)).catch(() => undefined);
    return !bytes || !holds(bytes);
  });
  expected.forEach(([urlPath], i) => {
    if (differs[i]) problems.push(`${urlPath}: the file on disk differs from what the build computed`);
  });
  // In this thread: at 10,000 entries two worker threads took as long (5.5 s against 5.7 s) and held
  // 180 MB more, on top of the build's heap, at the build's peak (BENCHMARKS.md).
  const report = await verifySite(folderReader(outDir, origin), { origin, now });
  for (const f of selfCheckFailures(report.findings)) problems.push(`${f.subject}: ${f.message} [${f.code}]`);
  if (problems.length > 0) {
    throw new ArdsiteError(
      'BUILD_SELF_CHECK_FAILED',
      `the built site did not verify; dist/ was left as it was:\n  ${problems.join('\n  ')}`,
    );
  }
  return report;
}
