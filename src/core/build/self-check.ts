/**
 * The build's verification of its own output, read back from disk (DESIGN.md §4): the same verifier a
 * crawler runs (`src/core/verify/site.ts`) over the temporary folder, plus a byte comparison of every
 * artifact with what the build computed.
 */
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { mapLimit } from '../concurrency.js';
import { ArdsiteError } from '../errors.js';
import type { SiteBuild } from '../site.js';
import { folderReader } from '../verify/folder-reader.js';
import { verifySite, type VerifyReport } from '../verify/site.js';

/**
 * Verifies the folder `outDir` as the site of `site`. Returns the report when every check holds.
 * @throws ArdsiteError `BUILD_SELF_CHECK_FAILED` listing what failed.
 */
export async function selfCheck(
  outDir: string,
  site: SiteBuild,
  now: Date = new Date(),
): Promise<VerifyReport> {
  const origin = site.model.publisher.siteUrl.replace(/\/$/, '');
  const problems: string[] = [];
  const differs = await mapLimit([...site.artifacts.values()], 32, async (artifact) => {
    const file = path.join(outDir, ...artifact.path.split('/').filter(Boolean));
    const bytes = await readFile(file).catch(() => undefined);
    return !bytes || !Buffer.from(artifact.bytes).equals(bytes);
  });
  [...site.artifacts.values()].forEach((artifact, i) => {
    if (differs[i]) problems.push(`${artifact.path}: the file on disk differs from what the build computed`);
  });
  const report = await verifySite(folderReader(outDir, origin), {
    origin,
    now,
    parallel: { folder: outDir, workers: availableParallelism() },
  });
  for (const f of report.findings) {
    if (f.severity === 'error') problems.push(`${f.subject}: ${f.message} [${f.code}]`);
  }
  if (problems.length > 0) {
    throw new ArdsiteError(
      'BUILD_SELF_CHECK_FAILED',
      `the built site did not verify; dist/ was left as it was:\n  ${problems.join('\n  ')}`,
    );
  }
  return report;
}
