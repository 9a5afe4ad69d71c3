/**
 * The JSON-LD block of the agent pages (DESIGN.md §6): the escaper keeps any content inside the
 * `<script type="application/ld+json">` element, and the object is the signed entry plus `@context`.
 */
import { describe, expect, it } from 'vitest';
import {
  ARD_BASE_CONTEXT,
  entryJsonLd,
  entryJsonLdScript,
  escapeJsonForScript,
} from '../../../src/core/pages/json-ld.js';

const HOSTILE = [
  '</script><script>alert(1)</script>',
  '</SCRIPT >',
  '<!-- <script>',
  'a & b > c < d',
  'line\u2028separator\u2029paragraph',
  '<img src=x onerror=alert(1)>',
];

describe('escapeJsonForScript', () => {
  it('escapes <, >, &, U+2028 and U+2029 as \\uXXXX', () => {
    expect(escapeJsonForScript('"<>&\u2028\u2029"')).toBe('"\\u003c\\u003e\\u0026\\u2028\\u2029"');
  });

  it.each(HOSTILE)(
    'leaves nothing that can end the script element in %j, and parses back to the same value',
    (text) => {
      const json = JSON.stringify({ description: text, list: [text] });
      const escaped = escapeJsonForScript(json);
      expect(escaped).not.toMatch(/[<>&\u2028\u2029]/);
      expect(JSON.parse(escaped)).toEqual({ description: text, list: [text] });
    },
  );

  it('does not touch JSON without those characters', () => {
    const json = JSON.stringify({ a: 'plain "quoted" text \\ slash', n: 1 });
    expect(escapeJsonForScript(json)).toBe(json);
  });
});

describe('entryJsonLd', () => {
  const entry = {
    '@context': { ram: 'https://github.com/a2aproject/A2A/issues/1426#' },
    identifier: 'urn:air:agents.example.com:travel:x',
    displayName: 'X </script>',
    type: 'application/a2a-agent-card+json',
    'ram:accessCount': 2,
  };

  it('layers the entry context on the ARD base context, first, and keeps every other member as it is', () => {
    const ld = entryJsonLd(entry);
    expect(Object.keys(ld)[0]).toBe('@context');
    expect(ld['@context']).toEqual([ARD_BASE_CONTEXT, entry['@context']]);
    const { '@context': _c, ...rest } = ld;
    const { '@context': _e, ...signed } = entry;
    expect(rest).toEqual(signed);
    expect(Object.keys(rest)).toEqual(Object.keys(signed));
  });

  it('uses the base context alone when the entry has none, and never repeats it', () => {
    expect(entryJsonLd({ identifier: 'a' })['@context']).toBe(ARD_BASE_CONTEXT);
    expect(entryJsonLd({ '@context': [ARD_BASE_CONTEXT, { x: 'y' }], identifier: 'a' })['@context']).toEqual([
      ARD_BASE_CONTEXT,
      { x: 'y' },
    ]);
  });

  it('serialises escaped, and the text parses back to the JSON-LD object', () => {
    const text = entryJsonLdScript(entry);
    expect(text).not.toContain('</script>');
    expect(JSON.parse(text)).toEqual(entryJsonLd(entry));
  });
});
