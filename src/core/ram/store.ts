/**
 * `npm run specs` (DESIGN.md §9): which resources' specs to fetch or pin, fetching them once under the
 * verifier's network rules (src/core/verify/http-reader.ts: https, a timeout, a size cap, no private
 * address, `--resolve`), and what changed between a stored copy and a new one. The command
 * (scripts/specs.ts) writes the bytes into the project and `specFile` / `specDigest` into the resource's
 * YAML file (src/core/content/pin.ts `withTopLevelValues`, comments kept).
 */
import path from 'node:path';
import type { CatalogResource, ContentModel } from '../model/content.js';
import { pathSlug } from '../project/path-slug.js';
import { STORED_SPECS_DIR } from '../schema/ram.js';
import { readSpecDocument } from './parse-spec.js';
import { leastPrivilege, operationName, type SpecIndex } from '../model/spec-index.js';

/** Where `npm run specs` stores a fetched spec: `content/specs/`. */
export const SPECS_DIR = STORED_SPECS_DIR;

/** A resource whose spec is to be fetched (`url`) or whose local file is to be pinned. */
export interface SpecTarget {
  resource: string;
  /** The YAML file that defines the resource (project-relative), where specFile/specDigest go. */
  file: string;
  /** Fetch from here; absent for a local file to pin as it is. */
  url?: string;
  /** The stored copy now, project-relative (absent before the first fetch). */
  specFile?: string;
  /** Its pinned digest now. */
  specDigest?: string;
}

/** A resource `npm run specs` leaves alone, and why (worded for the publisher). */
export interface SpecSkip {
  resource: string;
  file: string;
  reason: string;
}

/** True when the resource is defined by a whole YAML file (a `content/resources/` file), which can take the pin. */
function writableFile(r: CatalogResource): string | undefined {
  const file = r.origin.source.file;
  return r.origin.path.length === 0 && /\.ya?ml$/.test(file) ? file : undefined;
}

/**
 * The resources `npm run specs` works on (DESIGN.md §9), in file order: a REST resource with a
 * `spec.specUrl` and no stored copy is fetched; one with a stored copy is fetched again only with
 * `update`; a stored copy without `specDigest` (a spec kept as a local file) is pinned, and with `update`
 * a local copy whose bytes changed is pinned again. MCP servers list their tools through a JSON-RPC call,
 * not a document at a URL: their `tools/list` result is stored by hand and pinned here. A2A resources
 * have no spec of operations. A resource defined only inside an agent file or a RAM file is skipped with
 * the reason (its pin goes in a `content/resources/` file).
 */
export function specTargets(
  model: ContentModel,
  options: { update?: boolean } = {},
): { targets: SpecTarget[]; skipped: SpecSkip[] } {
  const targets: SpecTarget[] = [];
  const skipped: SpecSkip[] = [];
  for (const r of model.resources.values()) {
    const { id, interactionProtocol, spec } = r.resource;
    if (interactionProtocol === 'A2A') continue;
    const specUrl = spec?.specUrl;
    if (specUrl === undefined && r.specFile === undefined) continue;
    const file = writableFile(r);
    const here = r.origin.source.file;
    if (file === undefined) {
      skipped.push({
        resource: id,
        file: here,
        reason: `define resource "${id}" in content/resources/${id}.yaml (the same fields), where its spec can be pinned`,
      });
      continue;
    }
    const base = {
      resource: id,
      file,
      ...(r.specFile ? { specFile: r.specFile } : {}),
      ...(r.specDigest ? { specDigest: r.specDigest } : {}),
    };
    if (r.specFile === undefined) {
      if (interactionProtocol === 'MCP') {
        skipped.push({
          resource: id,
          file,
          reason: `an MCP server lists its tools through a JSON-RPC tools/list call: save its result (or its "result" member) under ${SPECS_DIR}/ and name it in specFile, then run this again to pin it`,
        });
        continue;
      }
      targets.push({ ...base, url: specUrl! });
      continue;
    }
    if (options.update && specUrl !== undefined && interactionProtocol === 'REST') {
      targets.push({ ...base, url: specUrl });
      continue;
    }
    if (r.specDigest === undefined || options.update) targets.push(base);
  }
  const byFile = (a: { file: string }, b: { file: string }) => a.file.localeCompare(b.file);
  return { targets: targets.sort(byFile), skipped: skipped.sort(byFile) };
}

/**
 * The file a fetched spec is stored in: its current `specFile` (the schema keeps it under
 * `content/specs/`), else `content/specs/<id>.json|yaml`.
 * @throws ArdsiteError `FILE_WRITE_REFUSED` when the resource id is not a slug (src/core/project/path-slug.ts).
 */
export function storedSpecPath(target: SpecTarget, bytes: Uint8Array): string {
  if (target.specFile) return target.specFile;
  pathSlug(target.resource, 'resource id');
  let json = false;
  try {
    JSON.parse(new TextDecoder().decode(bytes));
    json = true;
  } catch {
    json = false;
  }
  return path.posix.join(SPECS_DIR, `${target.resource}.${json ? 'json' : 'yaml'}`);
}

/** True when `bytes` parse as a spec document at all (JSON or YAML). */
export function parsesAsDocument(bytes: Uint8Array, file: string): boolean {
  try {
    readSpecDocument(bytes, file);
    return true;
  } catch {
    return false;
  }
}

/**
 * What changed between two versions of a spec, in lines for the publisher: operations added and removed,
 * scopes added and removed, and every operation whose least-privilege authorisation changed (a broader
 * or narrower scope). Empty when nothing that permissions read changed.
 */
export function describeSpecChange(before: SpecIndex, after: SpecIndex): string[] {
  const lines: string[] = [];
  const names = (i: SpecIndex) => new Set(i.operations.map(operationName));
  const scopes = (i: SpecIndex) => new Set([...i.schemes.values()].flatMap((s) => [...s.scopes.keys()]));
  const diff = (a: Set<string>, b: Set<string>) => [...a].filter((x) => !b.has(x)).sort();
  const [oldOps, newOps, oldScopes, newScopes] = [names(before), names(after), scopes(before), scopes(after)];
  for (const n of diff(newOps, oldOps)) lines.push(`operation added: ${n}`);
  for (const n of diff(oldOps, newOps)) lines.push(`operation removed: ${n}`);
  for (const s of diff(newScopes, oldScopes)) lines.push(`scope added: ${s}`);
  for (const s of diff(oldScopes, newScopes)) lines.push(`scope removed: ${s}`);
  const show = (lp: ReturnType<typeof leastPrivilege>) =>
    lp ? lp.requirements.map((r) => [r.scheme, ...r.scopes].join(' ')).join(' + ') : 'no authorisation';
  for (const op of after.operations) {
    const name = operationName(op);
    const old = before.operations.find((o) => operationName(o) === name);
    if (!old) continue;
    const [was, now] = [show(leastPrivilege(before, old)), show(leastPrivilege(after, op))];
    if (was !== now) lines.push(`least privilege of ${name}: ${was} → ${now}`);
  }
  return lines;
}
