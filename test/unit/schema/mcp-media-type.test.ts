/**
 * The MCP entry's media type is the one ARD draft §3.2.1 names, `application/mcp-server-card+json`,
 * everywhere a publisher reads it: the authoring guide's example entry, the field reference written from the schema,
 * and the schema's own example.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OtherEntryFile } from '../../../src/core/schema/entry.js';
import { REPO_ROOT } from '../../helpers/site.js';

const MCP = /application\/mcp-server[\w.-]*\+json/g;

describe('the MCP entry’s media type', () => {
  it.each(['docs/guides/authoring.md', 'docs/reference/entries.md'])(
    '%s names only application/mcp-server-card+json',
    (file) => {
      const found = readFileSync(path.join(REPO_ROOT, file), 'utf8').match(MCP) ?? [];
      expect(found.length).toBeGreaterThan(0);
      expect(new Set(found)).toEqual(new Set(['application/mcp-server-card+json']));
    },
  );

  it('the schema’s example of `type` is it', () => {
    const type = (
      OtherEntryFile as unknown as { shape: Record<string, { meta(): { examples?: unknown[] } }> }
    ).shape.type!.meta();
    expect(type.examples).toEqual(['application/mcp-server-card+json']);
  });
});
