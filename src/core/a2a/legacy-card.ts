/**
 * `/.well-known/agent.json`, the card path of clients before A2A v0.3 (A2A v0.2; DESIGN.md §2): which
 * agent is the primary one, and whether its card is also written there.
 */
import type { AgentModel, ContentModel } from '../model/content.js';

/** The agent served at the well-known card paths: `primaryAgent`, or the only agent of the site. */
export function primaryAgentOf(model: Pick<ContentModel, 'publisher' | 'agents'>): AgentModel | undefined {
  const { primaryAgent } = model.publisher;
  return (
    model.agents.find((a) => a.slug === primaryAgent) ??
    (model.agents.length === 1 ? model.agents[0] : undefined)
  );
}

/** True when `agent` has an interface with protocolVersion '0.3': its card carries the v0.3 fields. */
export function servesV03(agent: AgentModel): boolean {
  return agent.front.interfaces.some((i) => i.protocolVersion === '0.3');
}

/**
 * Whether the primary card is also written at `/.well-known/agent.json`: `hosting.legacyAgentJson` when
 * the publisher set it, else on exactly when the primary agent offers v0.3. False without a
 * primary agent.
 */
export function legacyAgentJsonOn(model: Pick<ContentModel, 'publisher' | 'agents'>): boolean {
  const primary = primaryAgentOf(model);
  if (!primary) return false;
  return model.publisher.hosting.legacyAgentJson ?? servesV03(primary);
}
