/**
 * The permission catalog of a content model (DESIGN.md §9): the stored spec of each resource that has
 * one (read from the project only, its digest checked against `specDigest`), and every operation of the
 * RAM catalog resolved against it, with its least-privilege authorisation. Computed once per build, so an
 * operation shared by many agents is resolved once.
 */
import { outsideMessage, placeInJail, projectSecrets } from '../project/project-jail.js';
import type { CatalogResource, ContentModel } from '../model/content.js';
import { sha256Digest } from '../ard/digest.js';
import { isFileSystemError, readRegularFile, type RegularFileRead } from '../project/regular-file.js';
import { ArdsiteError, formatPath, type Diagnostic } from '../util/errors.js';
import type { PermissionCatalog, StoredSpec } from '../model/permission-catalog.js';
import { parseSpec } from './parse-spec.js';
import { resolveOperation } from './resolve.js';
import { leastPrivilege, operationName } from '../model/spec-index.js';
import { npmCommand } from '../util/shell-word.js';

/** Largest stored spec read, in bytes (the verifier's default document cap, DESIGN.md §4). */
export const MAX_SPEC_BYTES = 32 * 1024 * 1024;

/** A diagnostic about `resource`, at `field` of its definition. */
function at(
  resource: CatalogResource,
  d: Omit<Diagnostic, 'file' | 'path'>,
  field: PropertyKey[],
): Diagnostic {
  const p = [...resource.origin.path, ...field];
  return resource.origin.source.diagnostic({ ...d, path: formatPath(p) }, p);
}

/**
 * Reads `file` (project-relative) from inside `root` only: after symbolic links it must still be inside
 * the project (DESIGN.md §9, the project is a jail), a regular file (a FIFO would block the read), and at
 * most {@link MAX_SPEC_BYTES} (src/core/project/regular-file.ts). Synchronous: one file open at a time, whatever the
 * number of specs (the reads of 60 specs at once failed with EMFILE under an open-file limit of 64).
 * @throws ArdsiteError `FILE_MISSING`, `FILE_OUTSIDE_PROJECT` (src/core/project/project-jail.ts), `FILE_UNREADABLE`
 *   (too large, not a regular file, or unreadable: the message gives the file system's code, never its
 *   message or the absolute path).
 */
export function readProjectFile(root: string, file: string): Uint8Array {
  // A stored spec is content: it never reads a secret of the project (a link to the key file, .env).
  const place = placeInJail(file, { root, secrets: projectSecrets(root) });
  if (place.state === 'missing') throw new ArdsiteError('FILE_MISSING', `${file} does not exist`);
  if (place.state === 'outside')
    throw new ArdsiteError('FILE_OUTSIDE_PROJECT', outsideMessage(file, place.real));
  let read: RegularFileRead;
  try {
    read = readRegularFile(place.real, MAX_SPEC_BYTES);
  } catch (error) {
    if (!isFileSystemError(error)) throw error;
    throw new ArdsiteError('FILE_UNREADABLE', `${file} cannot be read (${error.code})`);
  }
  if (read.kind === 'not-regular') throw new ArdsiteError('FILE_UNREADABLE', `${file} is not a regular file`);
  if (read.kind === 'too-large')
    throw new ArdsiteError(
      'FILE_UNREADABLE',
      `${file} is ${read.size} bytes, more than the ${MAX_SPEC_BYTES} a spec may have`,
    );
  return new Uint8Array(read.bytes);
}

/** The resources some agent of `model` uses (only those are resolved and warned about). */
function usedResources(model: ContentModel): Set<string> {
  const used = new Set<string>();
  for (const agent of model.agents) for (const r of agent.ram.resources) used.add(r.id);
  return used;
}

/**
 * Loads every used resource's stored spec and resolves every used operation (DESIGN.md §9). Never throws
 * on bad input: problems are diagnostics (`SPEC_*`, `FILE_*`), each naming the file, field and line.
 * Warns about a user's own (CONSUMER) REST resource without a spec (`SPEC_MISSING`), and about a user's
 * own resource whose spec URL has no stored copy (`SPEC_NOT_STORED`).
 */
export async function loadPermissionCatalog(
  model: ContentModel,
): Promise<{ catalog: PermissionCatalog; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const catalog: PermissionCatalog = { specs: new Map(), operations: new Map() };
  const used = usedResources(model);
  const parsed = new Map<string, Promise<StoredSpec>>(); // one parse per file, shared by resources
  await Promise.all(
    [...model.resources.values()].map(async (resource) => {
      const r = resource.resource;
      if (!used.has(r.id) || r.interactionProtocol === 'A2A') return;
      if (resource.specFile === undefined) {
        // Only the person's own services are asked to grant anything (the RAM proposal: 2P needs permission).
        if (r.owner !== 'CONSUMER') return;
        if (r.spec?.specUrl !== undefined)
          diagnostics.push(
            at(
              resource,
              {
                code: 'SPEC_NOT_STORED',
                severity: 'warning',
                message: `the spec at ${r.spec.specUrl} is not stored in the project, so the permissions of "${r.id}" are not derived: run ${npmCommand('specs', model.root)}`,
              },
              ['spec', 'specUrl'],
            ),
          );
        else if (r.interactionProtocol === 'REST')
          diagnostics.push(
            at(
              resource,
              {
                code: 'SPEC_MISSING',
                severity: 'warning',
                message: `"${r.id}" is one of the user's own services but names no spec (spec.specUrl, or a stored specFile), so the page cannot say what the person will be asked to allow`,
              },
              [],
            ),
          );
        return;
      }
      const file = resource.specFile;
      let promise = parsed.get(file);
      if (!promise) {
        promise = (async () => {
          const bytes = readProjectFile(model.root, file);
          const digest = sha256Digest(bytes);
          return { file, digest, index: await parseSpec(bytes, file) };
        })();
        parsed.set(file, promise);
      }
      let stored: StoredSpec;
      try {
        stored = await promise;
      } catch (error) {
        const e = error as ArdsiteError;
        diagnostics.push(
          at(resource, { code: e.code ?? 'SPEC_INVALID', severity: 'error', message: e.message }, [
            'specFile',
          ]),
        );
        return;
      }
      if (resource.specDigest === undefined) {
        diagnostics.push(
          at(
            resource,
            {
              code: 'SPEC_DIGEST_MISMATCH',
              severity: 'error',
              message: `${file} is not pinned: add specDigest: ${stored.digest} (${npmCommand('specs', model.root)} writes it)`,
            },
            ['specFile'],
          ),
        );
        return;
      }
      if (resource.specDigest !== stored.digest) {
        diagnostics.push(
          at(
            resource,
            {
              code: 'SPEC_DIGEST_MISMATCH',
              severity: 'error',
              message: `${file} has changed since it was pinned: its digest is ${stored.digest}, specDigest says ${resource.specDigest}. If the change is wanted, run ${npmCommand('specs', model.root, ['--update'])}`,
            },
            ['specDigest'],
          ),
        );
        return;
      }
      catalog.specs.set(r.id, stored);
    }),
  );

  for (const op of model.operations.values()) {
    const operation = op.operation;
    const resource = model.resources.get(operation.resource);
    const stored = catalog.specs.get(operation.resource);
    if (!resource || !stored) continue;
    const { found, problems } = resolveOperation(resource.resource, operation, op.readOnly, stored.index);
    for (const problem of problems) {
      const onResource = problem.field === 'resource.spec.resourcePath';
      const field = onResource ? ['spec', 'resourcePath'] : problem.field.split('.');
      const origin = onResource ? resource.origin : op.origin;
      const p = [...origin.path, ...field];
      diagnostics.push(
        origin.source.diagnostic(
          { code: problem.code, severity: problem.severity, message: problem.message, path: formatPath(p) },
          p,
        ),
      );
    }
    if (!found) continue;
    const least = leastPrivilege(stored.index, found);
    catalog.operations.set(operation.id, {
      resource: operation.resource,
      spec: found,
      specOperation: operationName(found),
      accepted: found.security,
      ...(least ? { leastPrivilege: least } : {}),
    });
  }
  return { catalog, diagnostics };
}
