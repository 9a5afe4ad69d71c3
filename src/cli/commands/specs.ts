/**
 * `ardsite specs` (src/core/ram/store.ts): fetches once the spec of each resource
 * whose `spec.specUrl` has no stored copy yet, stores it under content/specs/, and writes `specFile` and
 * `specDigest` into the resource's YAML file (comments kept). A spec kept as a local file (an MCP
 * tools/list result, a description you wrote) is pinned the same way. Builds then read only the stored
 * copy. Fetches go the way `npm run verify` reads (https with TLS 1.3, a timeout, a size cap, no private
 * address, no redirect to another origin).
 *
 * Exit 0 when every spec was stored (or was already), 1 when one could not be fetched, read or written, 2
 * for bad usage or content with errors other than those of specs (`npm run check` shows them).
 */
import path from 'node:path';
import { loadAndCheck } from '../../core/content/index.js';
import { withTopLevelValues } from '../../core/content/pin.js';
import { sha256Digest } from '../../core/ard/digest.js';
import { formatDiagnostic } from '../../core/util/errors.js';
import { readProjectFile } from '../../core/ram/catalog.js';
import { parseSpec } from '../../core/ram/parse-spec.js';
import type { SpecIndex } from '../../core/model/spec-index.js';
import { describeSpecChange, specTargets, storedSpecPath, type SpecTarget } from '../../core/ram/store.js';
import { readFile } from 'node:fs/promises';
import { projectFolder } from '../lib/args.js';
import { counted } from '../lib/counted.js';
import { networkReader, type NetworkValues } from '../lib/network-options.js';
import { shownFolder } from '../lib/shown-folder.js';
import { writeContained } from '../../core/project/contained-write.js';
import { terminalText } from '../../core/util/terminal-text.js';

/** The options of `ardsite specs` (src/cli/program.ts declares them). */
export interface SpecsCommandOptions extends NetworkValues {
  /** The project folder. */
  root: string;
  /** Fetches every stored spec again and reports what changed. */
  update: boolean;
  /** Says what would be written, writes nothing. */
  dryRun: boolean;
}

/**
 * Runs `ardsite specs` and returns its exit code (see the file's comment).
 *
 * @throws UsageError for a `--root` that is not a folder or a malformed network option.
 */
export async function runSpecs(values: SpecsCommandOptions): Promise<number> {
  const reader = await networkReader(values);

  const root = projectFolder(values.root);
  /** The project, as the summary lines name it. */
  const project = shownFolder(root);
  const { model, diagnostics } = await loadAndCheck({ root });
  // The spec findings (not stored, digest changed, operation not in the spec) are what this command is
  // for, or what it may fix; any other error stops it.
  const errors = diagnostics.filter((d) => d.severity === 'error' && !d.code.startsWith('SPEC_'));
  if (!model || errors.length > 0) {
    for (const d of errors) process.stderr.write(`${formatDiagnostic(d)}\n`);
    process.stderr.write(`specs: the content of ${project} has errors; fix them first (npm run check)\n`);
    return 2;
  }

  const dryRun = values.dryRun;
  const { targets, skipped } = specTargets(model, { update: values.update });
  for (const skip of skipped) process.stdout.write(`skip  ${skip.file}  ${skip.reason}\n`);
  if (targets.length === 0) {
    // "Every spec is stored" only when there is one: a project without any spec is told so.
    const any = values.update || specTargets(model, { update: true }).targets.length > 0;
    process.stdout.write(
      !any || values.update
        ? `No resource of ${project} has a spec to fetch or pin (spec.specUrl, or a specFile kept as a local file).\n`
        : `Every spec of ${project} is stored and pinned: nothing to do (--update fetches them again).\n`,
    );
    return 0;
  }

  let failed = 0;
  let written = 0;
  const fail = (target: SpecTarget, why: string) => {
    failed++;
    process.stderr.write(`FAIL  ${target.file}  ${target.resource}: ${terminalText(why)}\n`);
  };

  /** The stored copy now, parsed, when there is one that still reads (for the change report). */
  async function previous(target: SpecTarget): Promise<SpecIndex | undefined> {
    if (!target.specFile || !target.url) return undefined;
    try {
      return await parseSpec(readProjectFile(root, target.specFile), target.specFile);
    } catch {
      return undefined;
    }
  }

  for (const target of targets) {
    let bytes: Uint8Array;
    try {
      if (target.url) {
        const doc = await reader.read(target.url);
        if (!doc) throw new Error('the URL is outside what may be read from here');
        bytes = doc.bytes;
      } else {
        bytes = readProjectFile(root, target.specFile!);
      }
    } catch (error) {
      // Without a way to the spec's host (an offline or closed network), a copy of it kept by hand works the
      // same: say how.
      const byHand = target.url
        ? `; to store a copy you have, save it under content/specs/, write its path as specFile at the top level of the resource’s file (beside spec:, not under it), and run npm run specs again to pin it`
        : '';
      fail(
        target,
        `cannot ${target.url ? `fetch ${target.url}` : `read ${target.specFile}`}: ${(error as Error).message}${byHand}`,
      );
      continue;
    }
    let specFile: string;
    let index: SpecIndex;
    try {
      specFile = storedSpecPath(target, bytes);
      index = await parseSpec(bytes, target.url ?? specFile);
    } catch (error) {
      fail(target, `${(error as Error).message} (nothing written)`);
      continue;
    }
    const digest = sha256Digest(bytes);
    if (target.specDigest === digest && target.specFile === specFile) {
      process.stdout.write(`same  ${target.file}  ${target.resource}  ${digest} (${bytes.length} bytes)\n`);
      continue;
    }
    const before = await previous(target);
    let yamlText: string;
    try {
      yamlText = withTopLevelValues(
        await readFile(path.join(root, target.file), 'utf8'),
        [
          ['specFile', specFile],
          ['specDigest', digest],
        ],
        // Beside the stored copy's name when the file has one, else after the spec it stores.
        target.specFile ? 'specFile' : 'spec',
        target.file,
      );
    } catch (error) {
      fail(target, (error as Error).message);
      continue;
    }
    const from = target.url ? `from ${target.url}` : 'local file';
    const line = `${target.file}  ${target.resource}  ${specFile}  ${digest} (${bytes.length} bytes, ${from}; ${index.title}, ${counted(index.operations.length, 'operation')})`;
    if (dryRun) {
      process.stdout.write(`would store  ${line}\n`);
    } else {
      try {
        // Content named both paths: each is written only inside the project, never through a link.
        if (target.url) writeContained(root, specFile, bytes);
        writeContained(root, target.file, yamlText);
      } catch (error) {
        fail(target, `cannot write it: ${(error as Error).message}`);
        continue;
      }
      process.stdout.write(`stored  ${line}\n`);
    }
    written++;
    if (target.specDigest && target.specDigest !== digest) {
      process.stdout.write(`  changed: was ${target.specDigest}\n`);
      const changes = before ? describeSpecChange(before, index) : [];
      // Operation ids and scope names come from the fetched spec: shown, not obeyed.
      for (const change of changes) process.stdout.write(`  ${terminalText(change)}\n`);
      if (before && changes.length === 0)
        process.stdout.write('  no operation, scope or least privilege changed\n');
    }
  }
  process.stdout.write(
    `${counted(targets.length, 'spec')} of ${project} to store: ${written} ${dryRun ? 'would be ' : ''}written, ${failed} failed\n`,
  );
  return failed > 0 ? 1 : 0;
}
