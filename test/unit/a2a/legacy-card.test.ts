/**
 * `hosting.legacyAgentJson` (A2A v0.2's `/.well-known/agent.json`; DESIGN.md §2): on by default when the
 * primary agent offers v0.3, off when it does not, the publisher's value when given; a warning when it is set
 * on for a primary agent that cannot serve pre-0.3 clients.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../../src/core/content/index.js';
import { legacyAgentJsonOn, primaryAgentOf } from '../../../src/core/a2a/legacy-card.js';
import { agentMd, DEFAULT_PUBLISHER, makeSite, removeSites } from '../../helpers/site.js';

afterAll(removeSites);

const V10 = { url: 'https://api.example.test/a2a/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' };
const V03 = { url: 'https://api.example.test/a2a/v0', protocolBinding: 'JSONRPC', protocolVersion: '0.3' };

async function site(interfaces: object[], hosting = '') {
  const { model, diagnostics } = await loadAndCheck({
    root: await makeSite({
      'content/publisher.yaml': `${DEFAULT_PUBLISHER}primaryAgent: main\n${hosting}`,
      'content/agents/main.md': agentMd({ interfaces }),
      'content/agents/other.md': agentMd({ interfaces: [V10, V03] }),
    }),
  });
  return { model: model!, warnings: diagnostics.filter((d) => d.code === 'HOSTING_LEGACY_CARD') };
}

describe('hosting.legacyAgentJson', () => {
  it('is on by default when the primary agent offers v0.3, without a warning', async () => {
    const { model, warnings } = await site([V10, V03]);
    expect(primaryAgentOf(model)?.slug).toBe('main');
    expect(legacyAgentJsonOn(model)).toBe(true);
    expect(warnings).toEqual([]);
  });

  it('is off by default when the primary agent speaks v1.0 only (another agent’s v0.3 does not count)', async () => {
    const { model, warnings } = await site([V10]);
    expect(legacyAgentJsonOn(model)).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('follows the publisher: false turns it off', async () => {
    const { model } = await site([V10, V03], 'hosting:\n  legacyAgentJson: false\n');
    expect(legacyAgentJsonOn(model)).toBe(false);
  });

  it('true for a v1.0-only primary agent is kept, with a warning that says what to do', async () => {
    const { model, warnings } = await site([V10], 'hosting:\n  legacyAgentJson: true\n');
    expect(legacyAgentJsonOn(model)).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      severity: 'warning',
      file: 'content/publisher.yaml',
      path: 'hosting.legacyAgentJson',
    });
    expect(warnings[0]!.message).toContain("Add a protocolVersion '0.3' interface to content/agents/main.md");
  });
});
