import { afterAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../../src/core/content/index.js';
import { agentMd, makeSite, removeSites } from '../../helpers/site.js';

afterAll(removeSites);

/** The diagnostic on `necessity` of an agent whose one access has `necessity` as given (or none). */
async function necessityDiagnostic(necessity?: string) {
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
        { id: 'x', operation: 'r-call', identityUsed: 'AGENT', accessJustification: 'To test.', necessity },
      ],
    }),
  });
  const { diagnostics } = await loadAndCheck({ root });
  return diagnostics.find((x) => x.path === 'resourceAccesses[0].necessity');
}

describe('an enum field', () => {
  it('missing is reported as required, naming the allowed values without *_UNSPECIFIED', async () => {
    const d = await necessityDiagnostic();
    expect(d?.code).toBe('SCHEMA_REQUIRED');
    expect(d?.message).toBe('required field is missing (one of REQUIRED, RECOMMENDED, OPTIONAL)');
  });

  it('wrong lists the allowed values without *_UNSPECIFIED', async () => {
    const d = await necessityDiagnostic('REQUIRD');
    expect(d?.code).toBe('SCHEMA_INVALID_ENUM');
    expect(d?.message).toContain('is not one of REQUIRED, RECOMMENDED, OPTIONAL (did you mean "REQUIRED"?)');
  });
});
