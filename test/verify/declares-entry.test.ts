/**
 * ARD draft §6.2 cross-origin binding: when does an artifact "declare" its entry
 * (src/core/verify/documents.ts `declaresEntry`)? The identifier or the publisher's did:web as a whole
 * word: in JSON after decoding (escapes read as what they stand for), in any other text as it is; never
 * as part of a longer name, a URL's path, query or fragment.
 */
import { describe, expect, it } from 'vitest';
import { declaresEntry } from '../../src/core/verify/documents.js';

const ID = 'urn:air:acme.com:tools:r&d';
const DID = 'did:web:acme.com';
const declares = (text: string) => declaresEntry(Buffer.from(text, 'utf8'), ID, DID);

describe('declaresEntry', () => {
  it.each([
    ['a JSON string that is the DID', '{"publisher":"did:web:acme.com"}'],
    ['a JSON string that is the identifier', '{"id":"urn:air:acme.com:tools:r&d"}'],
    [
      'the identifier with a JSON escape (Go writes & as \\u0026)',
      '{"id":"urn:air:acme.com:tools:r\\u0026d"}',
    ],
    ['a key', '{"urn:air:acme.com:tools:r&d":true}'],
    ['the DID in a sentence, then a full stop', '{"d":"Published by did:web:acme.com."}'],
    [
      'in brackets, before a comma, in quotes',
      '{"d":"MCP tools (did:web:acme.com), by \\u201cdid:web:acme.com\\u201d"}',
    ],
    ['the DID in capitals (a did:web DID is a domain)', '{"publisher":"did:web:ACME.com"}'],
    ['YAML, quoted', "openapi: 3.1.0\nx-publisher: 'did:web:acme.com'\n"],
    ['plain text at the end', 'publisher did:web:acme.com'],
  ])('%s: declared', (_, text) => {
    expect(declares(text)).toBe(true);
  });

  it.each([
    ['a longer domain', '{"publisher":"did:web:acme.com.evil.example"}'],
    ['a longer domain, its dot escaped in JSON', '{"publisher":"did:web:acme.com\\u002eevil.example"}'],
    ['a longer domain in text', 'x-publisher: did:web:acme.comx'],
    ['a path-form DID under it', '{"publisher":"did:web:acme.com:users:alice"}'],
    ['a URL query naming it', '{"url":"https://victim.example/a2a?did:web:acme.com"}'],
    ['a URL fragment naming it', '{"url":"https://evil.example/#did:web:acme.com"}'],
    ['a URL path naming it', '{"url":"https://evil.example/did:web:acme.com"}'],
    ['another publisher', '{"publisher":"did:web:acme.co"}'],
    ['nothing', '{"name":"tools"}'],
  ])('%s: not declared', (_, text) => {
    expect(declares(text)).toBe(false);
  });

  it('a shorter DID is not found inside a longer one', () => {
    expect(
      declaresEntry(Buffer.from('{"p":"did:web:acme.com"}'), 'urn:air:acme.co:a:b', 'did:web:acme.co'),
    ).toBe(false);
  });
});
