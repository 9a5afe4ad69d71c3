/**
 * The field reference (docs/reference.md and a page per file under docs/reference/) is generated from the
 * schemas and complete: every field of publisher.yaml, agents, resources, entries and RAM files has a
 * description, a specification and (strings, numbers, maps) an example, and every generated page on disk
 * (the error codes' too) is exactly what `npm run reference` writes.
 */
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  missingReferenceParts,
  REFERENCE_SECTIONS,
  referencePageName,
  referenceRows,
} from '../../../src/core/schema/reference.js';
import { referenceFiles } from '../../../scripts/lib/reference-file.js';

const engineRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('field reference', () => {
  it('documents every field of every schema (description, spec, example)', () => {
    expect(missingReferenceParts()).toEqual([]);
  });

  it('lists the fields a publisher asked about, with type, default and example', () => {
    const rows = new Map(
      REFERENCE_SECTIONS.flatMap((s) => referenceRows(s.schema).map((r) => [`${s.title}:${r.path}`, r])),
    );
    for (const path of [
      'publisher.yaml:hosting.legacyAgentJson',
      'publisher.yaml:ram.topLevel',
      'publisher.yaml:ram.extensionUri',
      'publisher.yaml:signing.expiresInDays',
      'publisher.yaml:language',
      'publisher.yaml:siteName',
      'publisher.yaml:contactEmail',
      'publisher.yaml:termsUrl',
      'Agents:securitySchemes.<name>.oauth2SecurityScheme.flows.authorizationCode.scopes',
      'Agents:securityRequirements[].schemes',
      'Agents:capabilities.streaming',
      'Agents:discovery.representativeQueries',
      'Agents:attestations[].file',
      'Resources:interactionProtocol',
      'Entries:url',
    ])
      expect(rows.get(path), path).toBeDefined();
    expect(rows.get('publisher.yaml:language')).toMatchObject({
      type: 'string',
      default: 'en',
      required: false,
    });
    expect(rows.get('Resources:interactionProtocol')?.type).toContain('"MCP"');
    expect(rows.get('Resources:interactionProtocol')?.example).toBe('REST');
  });

  it('reports a field without a description', () => {
    const bare = z.strictObject({
      documented: z.string().meta({ description: 'd', examples: ['x'], spec: 's' }),
      bare: z.string(),
    });
    const rows = referenceRows(bare);
    expect(rows.find((r) => r.path === 'documented')).toMatchObject({
      description: 'd',
      exampleGiven: true,
      spec: 's',
    });
    expect(rows.find((r) => r.path === 'bare')).toMatchObject({
      description: undefined,
      exampleGiven: false,
    });
  });

  it('writes one page per file, linked from docs/reference.md', () => {
    expect(REFERENCE_SECTIONS.map(referencePageName)).toEqual([
      'publisher-yaml.md',
      'agents.md',
      'resources.md',
      'entries.md',
      'ram-file.md',
      'release-history.md',
    ]);
  });

  it('every generated page on disk is what npm run reference writes', async () => {
    const pages = await referenceFiles(engineRoot);
    expect([...pages.keys()].map((p) => relative(engineRoot, p))).toEqual([
      'docs/reference.md',
      ...REFERENCE_SECTIONS.map((s) => `docs/reference/${referencePageName(s)}`),
      'docs/reference/errors.md',
    ]);
    const stale: string[] = [];
    for (const [path, text] of pages)
      if ((await readFile(path, 'utf8').catch(() => '')) !== text) stale.push(relative(engineRoot, path));
    expect(stale, 'stale: run npm run reference').toEqual([]);
  });
});
