/**
 * The `npm run check` findings about permissions that need the whole agent (DESIGN.md §9): a card that
 * asks for a scope broader than the least-privilege set its RAM needs (`PERMISSION_SCOPE_BROADER`,
 * a warning). Spec loading and operation resolution report their own findings (./catalog.ts).
 */
import type { ContentModel } from '../content/model.js';
import { formatPath, type Diagnostic } from '../errors.js';
import { broaderScopes } from './declared.js';
import { agentPermissions } from './sets.js';

/** Warnings for every scope an agent's card asks for beyond what its accesses need. Pure. */
export function checkPermissions(model: ContentModel): Diagnostic[] {
  const catalog = model.permissions;
  if (!catalog) return [];
  const out: Diagnostic[] = [];
  for (const agent of model.agents) {
    const permissions = agentPermissions(agent, catalog);
    for (const b of broaderScopes(agent, catalog, permissions)) {
      const name = model.resources.get(b.resource)?.resource.displayName ?? b.resource;
      const where = b.where === 'agent' ? 'the card' : `skill "${b.where.skill}"`;
      const needed =
        b.needed.length === 0
          ? `its accesses need no scope of ${name} there`
          : `its accesses need only ${b.needed.join(', ')}`;
      out.push(
        agent.source.diagnostic(
          {
            code: 'PERMISSION_SCOPE_BROADER',
            severity: 'warning',
            message: `${where} asks for ${b.scope} of ${name}, broader than the least privilege: ${needed} (from the stored spec)`,
            path: formatPath(b.path),
          },
          b.path,
        ),
      );
    }
  }
  return out;
}
