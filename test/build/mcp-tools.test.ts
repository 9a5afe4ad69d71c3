/**
 * MCP resources told truly (the RAM proposal: one MCP tool per resource, `resource_path` = the tool's
 * name, its operation the tool's call; MCP 2025-06-18 "Tool annotations"): `npm run check` and the build
 * over small sites whose resources are tools of the dining fixture's stored `tools/list`
 * (test/fixtures/example-like/content/specs/dining-search-find-restaurants.json: `find_restaurants`
 * reads, `book_table` writes).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/util/errors.js';
import { buildProject, fixedKeyEnv } from '../helpers/build.js';
import { runCommandInProcess } from '../helpers/cli.js';
import { agentMd, EXAMPLE_LIKE, lineOf, makeSite, removeSites } from '../helpers/site.js';
import { storedSpec } from '../helpers/specs.js';

afterAll(removeSites);

const tools = storedSpec(
  'dining.json',
  JSON.parse(
    await readFile(path.join(EXAMPLE_LIKE, 'content/specs/dining-search-find-restaurants.json'), 'utf8'),
  ),
);

/** A dining resource that is the tool `resourcePath`, with one operation (`operationId`, `readOnly` as given). */
function diningResource(
  resourcePath: string,
  operation: { operationId?: string; readOnly?: boolean },
): string {
  return `id: dining
interactionProtocol: MCP
owner: THIRD_PARTY
displayName: Dining Search
description: Restaurants near a place.
spec:
  specUrl: https://mcp.dining.example/mcp
  resourcePath: ${resourcePath}
${tools.pin}operations:
  - id: dining-call
    description: Books a table for you.
${operation.operationId ? `    apiOperationSpec:\n      operationId: ${operation.operationId}\n` : ''}${operation.readOnly ? '    readOnly: true\n' : ''}`;
}

const agent = agentMd({
  resourceAccesses: [
    {
      id: 'book',
      operation: 'dining-call',
      identityUsed: 'END_USER',
      confirmationRequired: false,
      accessJustification: 'To book the table you chose.',
      necessity: 'OPTIONAL',
    },
  ],
});

async function checkJson(root: string): Promise<{ code: number; diagnostics: Diagnostic[] }> {
  const run = await runCommandInProcess('check.ts', '--root', root, '--json');
  return {
    code: run.code,
    diagnostics: (JSON.parse(run.stdout) as { diagnostics: Diagnostic[] }).diagnostics,
  };
}

describe('an MCP operation that names another tool than its resource', () => {
  it('is an error at its operationId line, naming the tools of the stored tools/list', async () => {
    const resource = diningResource('find_restaurants', { operationId: 'book_table', readOnly: true });
    const root = await makeSite({
      'content/resources/dining.yaml': resource,
      [tools.file]: tools.text,
      'content/agents/a.md': agent,
    });
    const { code, diagnostics } = await checkJson(root);
    expect(code).toBe(1);
    const errors = diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'RAM_MCP_TOOL_MISMATCH',
        file: 'content/resources/dining.yaml',
        line: lineOf(resource, 'operationId:'),
        path: 'operations[0].apiOperationSpec.operationId',
      }),
    ]);
    expect(errors[0]!.message).toContain('"book_table"');
    expect(errors[0]!.message).toContain('lists find_restaurants, book_table');
    // The build refuses it, so no page can say the writing tool "only reads".
    const build = await buildProject(root, { env: fixedKeyEnv() });
    expect(build.code).not.toBe(0);
    expect(build.stderr + build.stdout).toContain('RAM_MCP_TOOL_MISMATCH');
    expect(build.stderr + build.stdout).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('a misspelt tool is an error with a did-you-mean and the tools the list has', async () => {
    const resource = diningResource('find_restaurants', { operationId: 'find_restaurant' });
    const root = await makeSite({
      'content/resources/dining.yaml': resource,
      [tools.file]: tools.text,
      'content/agents/a.md': agent,
    });
    const { code, diagnostics } = await checkJson(root);
    expect(code).toBe(1);
    const errors = diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toMatchObject([
      {
        code: 'SPEC_OPERATION_UNRESOLVED',
        file: 'content/resources/dining.yaml',
        line: lineOf(resource, 'operationId:'),
        message: expect.stringMatching(
          /"find_restaurant".*did you mean "find_restaurants".*lists find_restaurants, book_table/,
        ),
      },
    ]);
  });

  it('without a stored tools/list, the mismatch is still an error at its line', async () => {
    const resource = diningResource('find_restaurants', { operationId: 'book_table' }).replace(tools.pin, '');
    const root = await makeSite({ 'content/resources/dining.yaml': resource, 'content/agents/a.md': agent });
    const { code, diagnostics } = await checkJson(root);
    expect(code).toBe(1);
    expect(diagnostics.filter((d) => d.severity === 'error')).toMatchObject([
      { code: 'RAM_MCP_TOOL_MISMATCH', line: lineOf(resource, 'operationId:') },
    ]);
  });

  it('an operationId that repeats the resource’s tool is no error', async () => {
    const resource = diningResource('find_restaurants', { operationId: 'find_restaurants', readOnly: true });
    const root = await makeSite({
      'content/resources/dining.yaml': resource,
      [tools.file]: tools.text,
      'content/agents/a.md': agent,
    });
    const { code, diagnostics } = await checkJson(root);
    expect(code).toBe(0);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe('the writing tool itself, marked readOnly: true', () => {
  it('builds, and neither the card nor the page says it only reads', async () => {
    const root = await makeSite({
      'content/resources/dining.yaml': diningResource('book_table', { readOnly: true }),
      [tools.file]: tools.text,
      'content/agents/a.md': agent,
    });
    const { diagnostics } = await checkJson(root);
    expect(diagnostics.map((d) => d.code)).toContain('SPEC_READ_WRITE_MISMATCH');
    const build = await buildProject(root, { env: fixedKeyEnv() });
    expect(build.code, build.stderr).toBe(0);
    const card = await readFile(path.join(build.outDir, 'agents/a/agent-card.json'), 'utf8');
    expect(card).not.toContain('readOnlyOperations');
    const page = await readFile(path.join(build.outDir, 'agents/a/permissions/index.html'), 'utf8');
    expect(page).toContain('It may change data');
    expect(page).not.toContain('It only reads data');
    // Its openWorldHint is absent (MCP's default: true): the access says it may reach beyond the server.
    expect(page).toMatch(/<dd data-more-effect>It may also reach other services or sites beyond this one/);
    // The label on top says so too, in words: the tool list wins over the publisher's readOnly: true.
    const label = /<section[^>]*data-label[^>]*>([\s\S]*?)<\/section>/.exec(page)?.[1] ?? '';
    const text = label.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
    expect(text).toContain('Books a table for you: changes data, without asking you first, optional');
    expect(text).not.toContain('only reads');
  });
});
