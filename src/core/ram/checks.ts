/**
 * The `npm run check` findings about permissions that need the whole agent (DESIGN.md §9): an access whose
 * `neededScope` its spec does not accept for the operation (`ACCESS_SCOPE_NOT_ACCEPTED`, an error), and a
 * card that asks for a scope broader than the narrowest ones the specs list for its accesses, which no
 * access names as needed (`PERMISSION_SCOPE_BROADER`, a warning). Spec loading and operation resolution
 * report their own findings (./catalog.ts).
 */
import type { AgentModel, ContentModel } from '../model/content.js';
import { formatPath, type Diagnostic } from '../util/errors.js';
import type { PermissionCatalog } from '../model/permission-catalog.js';
import { broaderScopes } from './declared.js';
import { agentPermissions } from './sets.js';
import { acceptedScopes, alternativeWithScope } from '../model/spec-index.js';

/**
 * Errors for each access of `agent` whose `neededScope` (docs/permissions.md "Needed scopes") is not a scope
 * its operation's stored spec accepts (OpenAPI 3.1 §4.8.30 security requirements; a Discovery method's
 * `scopes`), or whose resource has no stored spec to check it against, at the scope's line. An operation
 * that does not resolve in its stored spec is reported by the resolution already. Pure.
 */
function neededScopeFindings(
  agent: AgentModel,
  model: ContentModel,
  catalog: PermissionCatalog,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { access, neededScope, origin } of agent.accesses) {
    if (!neededScope) continue;
    const resolved = catalog.operations.get(access.operation);
    const resourceId = model.operations.get(access.operation)?.operation.resource;
    let message: string | undefined;
    if (resolved) {
      if (alternativeWithScope(resolved.accepted, neededScope.scope)) continue;
      const scopes = acceptedScopes(resolved.accepted);
      message =
        `access "${access.id}" names the scope ${neededScope.scope}, but the stored spec does not accept it for ${resolved.specOperation}: ` +
        (scopes.length === 0 ? 'it names no scope for that operation' : `it accepts ${scopes.join(', ')}`);
    } else if (resourceId !== undefined && !catalog.specs.has(resourceId)) {
      message = `access "${access.id}" names the scope ${neededScope.scope}, but its resource "${resourceId}" has no stored spec to check it against: store the spec (specFile, specDigest) first`;
    }
    if (message === undefined) continue;
    const p = [...origin.path, 'neededScope', 'scope'];
    out.push(
      origin.source.diagnostic(
        { code: 'ACCESS_SCOPE_NOT_ACCEPTED', severity: 'error', message, path: formatPath(p) },
        p,
      ),
    );
  }
  return out;
}

/**
 * The permission findings of every agent of `model`: {@link neededScopeFindings}, then a warning for each
 * scope its card asks for beyond what its accesses need (./declared.ts `broaderScopes`). Pure.
 */
export function checkPermissions(model: ContentModel): Diagnostic[] {
  const catalog = model.permissions;
  if (!catalog) return [];
  const out: Diagnostic[] = [];
  for (const agent of model.agents) {
    out.push(...neededScopeFindings(agent, model, catalog));
    const permissions = agentPermissions(agent, catalog);
    for (const b of broaderScopes(agent, catalog, permissions)) {
      const name = model.resources.get(b.resource)?.resource.displayName ?? b.resource;
      const where = b.where === 'agent' ? 'the card' : `skill "${b.where.skill}"`;
      const needed =
        b.needed.length === 0
          ? `its accesses need no scope of ${name} there`
          : `the narrowest scopes the stored spec lists for its accesses are ${b.needed.join(', ')}`;
      out.push(
        agent.source.diagnostic(
          {
            code: 'PERMISSION_SCOPE_BROADER',
            severity: 'warning',
            message: `${where} asks for ${b.scope} of ${name}, and no access says why it needs it: ${needed}. If an access needs it (data the narrower scope leaves out), name it there with neededScope: { scope, reason }`,
            path: formatPath(b.path),
          },
          b.path,
        ),
      );
    }
  }
  return out;
}
