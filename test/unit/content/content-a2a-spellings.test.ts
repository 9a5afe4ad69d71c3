/**
 * What check says of a card written in other A2A documents' spellings (A2A v0.3, v1.0): one error for one
 * fault, no false consequences, messages that say what to write. OAuth written as the A2A v0.3 documents show
 * it, snake_case card fields, v0.3 interface fields, an empty `description:`, and a front-matter error in an
 * agent with a `ramFile`.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../../src/core/content/index.js';
import type { Diagnostic } from '../../../src/core/util/errors.js';
import { runCommandInProcess } from '../../helpers/cli.js';
import { agentMd, DEFAULT_PUBLISHER, EXAMPLE_LIKE, makeSite, removeSites } from '../../helpers/site.js';

afterAll(removeSites);

const errors = (ds: Diagnostic[]) => ds.filter((d) => d.severity === 'error');
const withPrimary = (slug: string) => `${DEFAULT_PUBLISHER}primaryAgent: ${slug}\n`;

const OAUTH_FLOWS = {
  authorizationCode: {
    authorizationUrl: 'https://auth.example.test/authorize',
    tokenUrl: 'https://auth.example.test/token',
    scopes: { 'orders.read': 'Read your orders' },
  },
};

describe('OAuth written the A2A v0.3 way (type: oauth2, security:)', () => {
  const files = {
    'content/publisher.yaml': withPrimary('order-helper'),
    'content/agents/order-helper.md': agentMd({
      securitySchemes: { shop: { type: 'oauth2', flows: OAUTH_FLOWS } },
      security: [{ shop: ['orders.read'] }],
    }),
    // A name of its own: two agents of one name are look-alikes (a warning of their own).
    'content/agents/other.md': agentMd({ name: 'Other Helper' }),
  };

  it('gives one error per spelling, each saying what to write, and no misleading primaryAgent error', async () => {
    const { diagnostics } = await loadAndCheck({ root: await makeSite(files) });
    const found = errors(diagnostics);
    expect(found.map((d) => [d.code, d.path])).toEqual([
      ['A2A_SPELLING', 'securitySchemes.shop.type'],
      ['A2A_SPELLING', 'security'],
    ]);
    expect(found[0]!.message).toContain('Write shop: { oauth2SecurityScheme: { flows: { authorizationCode:');
    expect(found[1]!.message).toContain(
      'write securityRequirements: [ { schemes: { shop: { list: [ orders.read ] } } } ]',
    );
    expect(diagnostics.some((d) => d.message.includes('primaryAgent'))).toBe(false);
  });

  it('what the messages say to write is accepted as written', async () => {
    const { diagnostics } = await loadAndCheck({
      root: await makeSite({
        ...files,
        'content/agents/order-helper.md': agentMd({
          securitySchemes: { shop: { oauth2SecurityScheme: { flows: OAUTH_FLOWS } } },
          securityRequirements: [{ schemes: { shop: { list: ['orders.read'] } } }],
        }),
      }),
    });
    expect(errors(diagnostics)).toEqual([]);
  });

  it('the check summary counts the agents by file, the one with errors included', async () => {
    const root = await makeSite(files);
    const { stdout, code } = await runCommandInProcess('check.ts', '--root', root);
    expect(code).toBe(1);
    expect(stdout.split('\n').at(-2)).toBe(
      `checked ${root}/: 2 agents, 0 resources, 0 entries, 2 errors, 1 warning`,
    );
  });

  it('the other v0.3 scheme types convert too (apiKey in → location, http, openIdConnect, mutualTLS)', async () => {
    const { diagnostics } = await loadAndCheck({
      root: await makeSite({
        'content/agents/a.md': agentMd({
          securitySchemes: {
            key: { type: 'apiKey', in: 'header', name: 'X-Key' },
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            oidc: {
              type: 'openIdConnect',
              openIdConnectUrl: 'https://id.example.test/.well-known/openid-configuration',
            },
            mtls: { type: 'mutualTLS' },
            odd: { type: 'kerberos' },
          },
        }),
      }),
    });
    const messages = errors(diagnostics).map((d) => d.message);
    expect(messages).toHaveLength(5);
    expect(messages[0]).toContain('key: { apiKeySecurityScheme: { location: header, name: X-Key } }');
    expect(messages[1]).toContain('httpAuthSecurityScheme: { scheme: bearer, bearerFormat: JWT }');
    expect(messages[2]).toContain('openIdConnectSecurityScheme');
    expect(messages[3]).toContain('mtlsSecurityScheme: {}');
    expect(messages[4]).toContain('is not a security scheme type');
  });
});

describe('snake_case and v0.3 card fields', () => {
  it('one "write X instead" per field, no "required field is missing" for the same fault', async () => {
    const { diagnostics } = await loadAndCheck({
      root: await makeSite({
        'content/agents/a.md': agentMd({
          defaultInputModes: undefined,
          default_input_modes: ['text/plain'],
          documentation_url: 'https://docs.example.test/',
          interfaces: undefined,
          url: 'https://api.example.test/a2a',
          preferred_transport: 'JSONRPC',
          protocolVersion: '1.0.0',
          securitySchemes: { shop: { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } } },
          supportsAuthenticatedExtendedCard: true,
          skills: [{ ...agentMdSkill(), input_modes: ['text/plain'], security: [{ shop: ['x'] }] }],
        }),
      }),
    });
    const found = errors(diagnostics).map((d) => `${d.path}: ${d.message}`);
    expect(found).toHaveLength(6);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^url: "url", "preferred_transport", "protocolVersion": .*Write interfaces: \[ \{ url: https:\/\/api\.example\.test\/a2a, protocolBinding: JSONRPC, protocolVersion: "1\.0" \} \]$/,
        ),
        expect.stringContaining(
          'supportsAuthenticatedExtendedCard: "supportsAuthenticatedExtendedCard" is the A2A v0.3 name: write capabilities: { extendedAgentCard: true }',
        ),
        'default_input_modes: "default_input_modes" is the snake_case spelling: write "defaultInputModes" instead',
        'documentation_url: "documentation_url" is the snake_case spelling: write "documentationUrl" instead',
        'skills[0].input_modes: "input_modes" is the snake_case spelling: write "inputModes" instead',
        expect.stringContaining('skills[0].security: "security" is the A2A v0.3 name'),
      ]),
    );
  });
});

function agentMdSkill() {
  return { id: 'answer', name: 'Answer', description: 'Answers.', tags: ['t'], examples: ['a?', 'b?'] };
}

describe('an empty field', () => {
  it('says it is empty, not "expected string, got null"', async () => {
    const root = await makeSite({ 'content/agents/a.md': agentMd({ description: null }) });
    const { diagnostics } = await loadAndCheck({ root });
    expect(errors(diagnostics)).toEqual([
      expect.objectContaining({
        code: 'SCHEMA_EMPTY',
        path: 'description',
        message: 'is empty: write the text after "description:"',
      }),
    ]);
  });
});

describe('a front-matter error in an agent with a ramFile', () => {
  let copy: string;
  afterAll(() => rm(copy, { recursive: true, force: true }));

  it('is the one finding: no false RAM_UNUSED, no false primaryAgent error', async () => {
    copy = await mkdtemp(path.join(tmpdir(), 'ardsite-ramfile-'));
    await cp(EXAMPLE_LIKE, copy, { recursive: true });
    const sound = await loadAndCheck({ root: copy });
    const file = path.join(copy, 'content/agents/travel-reservation.md');
    const text = await readFile(file, 'utf8');
    expect(text).toMatch(/^ramFile: /m);
    expect(await readFile(path.join(copy, 'content/publisher.yaml'), 'utf8')).toMatch(
      /^primaryAgent: travel-reservation/m,
    );
    await writeFile(file, text.replace(/^version: .*$/m, 'version:'));
    const broken = await loadAndCheck({ root: copy });
    expect(errors(broken.diagnostics).map((d) => [d.code, d.file, d.path])).toEqual([
      ['SCHEMA_EMPTY', 'content/agents/travel-reservation.md', 'version'],
    ]);
    // Its own warnings go with it; no warning appears that the sound site does not have.
    const soundWarnings = new Set(sound.diagnostics.map((d) => `${d.code} ${d.file} ${d.path}`));
    for (const w of broken.diagnostics.filter((d) => d.severity === 'warning'))
      expect(soundWarnings.has(`${w.code} ${w.file} ${w.path}`), w.message).toBe(true);
  });
});
