/**
 * ARD entries shaped like the ones `npm run build` writes for bench/synthetic.ts's agents (the same
 * words in the same members), made directly, without a build: for index tests at scale.
 */

/** `n` synthetic agent entries of one publisher, identifiers `…:agent-<i>`. */
export function syntheticEntries(n: number): Array<Record<string, unknown>> {
  const verbs = ['plan', 'search', 'summarise'];
  return Array.from({ length: n }, (_, i) => ({
    identifier: `urn:air:bench.example.com:agents:agent-${i}`,
    displayName: `Synthetic Agent ${i}`,
    type: 'application/a2a-agent-card+json',
    url: `https://bench.example.com/agents/agent-${i}/agent-card.json`,
    version: `1.${i % 10}.0`,
    description: `Synthetic agent number ${i}, with three skills and eight accesses to five services.`,
    tags: ['synthetic', ...verbs],
    capabilities: verbs.map((v) => `${v[0]!.toUpperCase()}${v.slice(1)} for agent ${i}`),
    representativeQueries: verbs.flatMap((v, k) => [
      `Please ${v} my week number ${i}`,
      `Can you ${v} everything about topic ${(i * 7 + k) % 97}?`,
    ]),
  }));
}
