import { afterAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../src/core/content/index.js';
import { agentMd, makeSite, removeSites } from '../helpers/site.js';

afterAll(removeSites);

describe('a missing enum field', () => {
  it('is reported as required, naming the allowed values without *_UNSPECIFIED', async () => {
    const root = await makeSite({
      'content/agents/a.md': agentMd({
        resources: [
          {
            id: 'r',
            interactionProtocol: 'MCP',
            owner: 'THIRD_PARTY',
            displayName: 'R',
            description: 'A tool.',
            operations: [{ id: 'r-call', description: 'Calls it.' }],
          },
        ],
        resourceAccesses: [
          { id: 'x', operation: 'r-call', identityUsed: 'AGENT', accessJustification: 'To test.' },
        ],
      }),
    });
    const { diagnostics } = await loadAndCheck({ root });
    const d = diagnostics.find((x) => x.path === 'resourceAccesses[0].necessity');
    expect(d?.code).toBe('SCHEMA_REQUIRED');
    expect(d?.message).toBe('required field is missing (one of REQUIRED, RECOMMENDED, OPTIONAL)');
  });

  it('lists the allowed values of a wrong one without *_UNSPECIFIED', async () => {
    const root = await makeSite({
      'content/agents/a.md': agentMd({
        resources: [
          {
            id: 'r',
            interactionProtocol: 'MCP',
            owner: 'THIRD_PARTY',
            displayName: 'R',
            description: 'A tool.',
            operations: [{ id: 'r-call', description: 'Calls it.' }],
          },
        ],
        resourceAccesses: [
          {
            id: 'x',
            operation: 'r-call',
            identityUsed: 'AGENT',
            accessJustification: 'To test.',
            necessity: 'REQUIRD',
          },
        ],
      }),
    });
    const { diagnostics } = await loadAndCheck({ root });
    const d = diagnostics.find((x) => x.path === 'resourceAccesses[0].necessity');
    expect(d?.code).toBe('SCHEMA_INVALID_ENUM');
    expect(d?.message).toContain('is not one of REQUIRED, RECOMMENDED, OPTIONAL (did you mean "REQUIRED"?)');
  });
});
