import { codeOf } from '../../helpers/errors.js';
import type { ArdsiteError } from '../../../src/core/util/errors.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  buildDidDocument,
  buildJwks,
  didFromKid,
  didWebFromDomain,
  domainFromDidWeb,
  findAssertionKey,
} from '../../../src/core/trust/did.js';
import { createSigningKey } from '../../../src/core/trust/keys.js';
import { type PrivateSigningJwk, type PublishedJwk } from '../../../src/core/trust/jwk.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const read = (f: string): PrivateSigningJwk =>
  JSON.parse(readFileSync(path.resolve(here, '../../vectors', f), 'utf8')) as PrivateSigningJwk;
const DOMAIN = 'agents.example.com';
const DID = 'did:web:agents.example.com';
const ES = createSigningKey(read('test-key-es256.jwk.json'), DOMAIN);
const ED = createSigningKey(read('test-key-ed25519.jwk.json'), DOMAIN);

describe('did:web names', () => {
  it('makes and reads did:web:<domain>, lowercased', () => {
    expect(didWebFromDomain('Agents.Example.COM')).toBe(DID);
    expect(domainFromDidWeb(DID)).toBe(DOMAIN);
    expect(domainFromDidWeb('did:web:Agents.Example.com')).toBe(DOMAIN);
  });

  it.each([
    'agents.example.com:8443',
    'https://agents.example.com',
    '',
    'exa mple.com',
    '-a.example.com',
    'a..b',
    'example.com.',
    'a/b',
  ])('didWebFromDomain refuses %j (SCHEMA_INVALID_VALUE)', (domain) => {
    expect(codeOf(() => didWebFromDomain(domain))).toBe('SCHEMA_INVALID_VALUE');
  });

  it.each([
    'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
    'did:web:agents.example.com:users:alice',
    'did:web:localhost%3A8443',
    `${DID}#key-1`,
    'did:web:',
    'agents.example.com',
  ])('domainFromDidWeb refuses %j (DID_RESOLUTION_FAILED)', (did) => {
    expect(codeOf(() => domainFromDidWeb(did))).toBe('DID_RESOLUTION_FAILED');
  });

  it('didFromKid takes the part before #', () => {
    expect(didFromKid(ES.kid)).toBe(DID);
    expect(codeOf(() => didFromKid(DID))).toBe('DID_RESOLUTION_FAILED');
    expect(codeOf(() => didFromKid('#frag'))).toBe('DID_RESOLUTION_FAILED');
    expect(codeOf(() => didFromKid(`${DID}#`))).toBe('DID_RESOLUTION_FAILED');
  });
});

describe('buildDidDocument', () => {
  it('lists each key as JsonWebKey2020 and under assertionMethod, publicKeyJwk with key members only', () => {
    const doc = buildDidDocument(DOMAIN, [ES.publicJwk, ED.publicJwk, ES.publicJwk]);
    expect(doc).toEqual({
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
      id: DID,
      verificationMethod: [
        {
          id: ES.kid,
          type: 'JsonWebKey2020',
          controller: DID,
          publicKeyJwk: { kty: 'EC', crv: 'P-256', x: ES.publicJwk.x, y: (ES.publicJwk as { y: string }).y },
        },
        {
          id: ED.kid,
          type: 'JsonWebKey2020',
          controller: DID,
          publicKeyJwk: { kty: 'OKP', crv: 'Ed25519', x: ED.publicJwk.x },
        },
      ],
      assertionMethod: [ES.kid, ED.kid],
    });
  });

  it('refuses a key with private members (KEY_PRIVATE_PUBLISHED) or a kid under another DID (KEY_INVALID)', () => {
    const leaky = { ...ES.publicJwk, d: 'x' } as unknown as PublishedJwk;
    expect(codeOf(() => buildDidDocument(DOMAIN, [leaky]))).toBe('KEY_PRIVATE_PUBLISHED');
    expect(codeOf(() => buildDidDocument('other.example.com', [ES.publicJwk]))).toBe('KEY_INVALID');
  });
});

describe('buildJwks', () => {
  it('is an RFC 7517 JWK Set with full DID URL kids, alg and use', () => {
    expect(buildJwks([ES.publicJwk, ED.publicJwk])).toEqual({
      keys: [
        {
          kty: 'EC',
          crv: 'P-256',
          x: ES.publicJwk.x,
          y: (ES.publicJwk as { y: string }).y,
          kid: ES.kid,
          alg: 'ES256',
          use: 'sig',
        },
        { kty: 'OKP', crv: 'Ed25519', x: ED.publicJwk.x, kid: ED.kid, alg: 'EdDSA', use: 'sig' },
      ],
    });
    expect(buildJwks([])).toEqual({ keys: [] });
  });

  it('refuses private members and mixed DIDs', () => {
    expect(codeOf(() => buildJwks([{ ...ED.publicJwk, d: 'x' } as unknown as PublishedJwk]))).toBe(
      'KEY_PRIVATE_PUBLISHED',
    );
    const other = createSigningKey(read('test-key-ed25519.jwk.json'), 'other.example.com');
    expect(codeOf(() => buildJwks([ES.publicJwk, other.publicJwk]))).toBe('KEY_INVALID');
  });
});

describe('findAssertionKey', () => {
  const doc = buildDidDocument(DOMAIN, [ES.publicJwk, ED.publicJwk]);

  it('finds a key of a document it built', () => {
    expect(findAssertionKey(doc, ED.kid)).toEqual({ kty: 'OKP', crv: 'Ed25519', x: ED.publicJwk.x });
    expect(findAssertionKey(JSON.parse(JSON.stringify(doc)), ES.kid)).toMatchObject({
      kty: 'EC',
      crv: 'P-256',
    });
  });

  it('resolves relative #fragment ids and embedded assertion methods', () => {
    const frag = ES.kid.slice(DID.length);
    const relative = {
      id: DID,
      verificationMethod: [
        {
          id: frag,
          type: 'JsonWebKey2020',
          controller: DID,
          publicKeyJwk: doc.verificationMethod[0]?.publicKeyJwk,
        },
      ],
      assertionMethod: [frag],
    };
    expect(findAssertionKey(relative, ES.kid)).toMatchObject({ kty: 'EC' });
    const embedded = {
      id: DID,
      assertionMethod: [{ ...doc.verificationMethod[1], id: ED.kid.slice(DID.length) }],
    };
    expect(findAssertionKey(embedded, ED.kid)).toMatchObject({ kty: 'OKP' });
  });

  it('refuses a key that is not under assertionMethod', () => {
    const notAsserting = { ...doc, assertionMethod: [ED.kid], authentication: [ES.kid] };
    expect(codeOf(() => findAssertionKey(notAsserting, ES.kid))).toBe('DID_RESOLUTION_FAILED');
    expect(findAssertionKey(notAsserting, ED.kid)).toMatchObject({ kty: 'OKP' });
  });

  it.each([
    ['not an object', 'did.json'],
    ['no id', { verificationMethod: [] }],
    ['a kid of another DID', { ...doc, id: 'did:web:other.example.com' }],
    ['an unknown kid', { ...doc, assertionMethod: [...doc.assertionMethod, `${DID}#nope`] }],
    ['a referenced method that is not defined', { ...doc, verificationMethod: [] }],
    ['verificationMethod not a list', { ...doc, verificationMethod: {} }],
    [
      'a method without publicKeyJwk',
      { ...doc, verificationMethod: [{ id: ES.kid, type: 'Multikey', controller: DID }] },
    ],
    [
      'a method defined twice',
      { ...doc, verificationMethod: [doc.verificationMethod[0], doc.verificationMethod[0]] },
    ],
  ])('refuses %s with DID_RESOLUTION_FAILED', (_label, d) => {
    const kid = _label === 'an unknown kid' ? `${DID}#nope` : ES.kid;
    expect(codeOf(() => findAssertionKey(d, kid))).toBe('DID_RESOLUTION_FAILED');
  });

  it.each(['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'])(
    'refuses a published JWK with private member %s (KEY_PRIVATE_PUBLISHED)',
    (member) => {
      const leaky = JSON.parse(JSON.stringify(doc)) as {
        verificationMethod: Array<{ publicKeyJwk: Record<string, unknown> }>;
      };
      const vm = leaky.verificationMethod[0];
      if (vm) vm.publicKeyJwk[member] = 'c2VjcmV0';
      const err = (() => {
        try {
          findAssertionKey(leaky, ES.kid);
        } catch (e) {
          return e as ArdsiteError;
        }
        return undefined;
      })();
      expect(err?.code).toBe('KEY_PRIVATE_PUBLISHED');
      expect(err?.message).not.toContain('c2VjcmV0');
    },
  );
});
