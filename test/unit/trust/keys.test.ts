import { execFileSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync, verify as nodeVerify } from 'node:crypto';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { calculateJwkThumbprint } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { ArdsiteError } from '../../../src/core/util/errors.js';
import { createSigningKey, generatePrivateJwk } from '../../../src/core/trust/keys.js';
import { parsePrivateKey } from '../../../src/core/trust/key-checks.js';
import { loadPublicKeysForRotation } from '../../../src/core/trust/retired-keys.js';
import { DEFAULT_KEY_FILE, resolveSigningKey } from '../../../src/core/trust/key-file.js';
import { publicJwkThumbprint, type PrivateSigningJwk } from '../../../src/core/trust/jwk.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ES256_TEXT = readFileSync(path.resolve(here, '../../vectors/test-key-es256.jwk.json'), 'utf8');
const ED25519_TEXT = readFileSync(path.resolve(here, '../../vectors/test-key-ed25519.jwk.json'), 'utf8');
const ES256 = JSON.parse(ES256_TEXT) as {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  d: string;
  comment: string;
};
const ED25519 = JSON.parse(ED25519_TEXT) as {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  d: string;
  comment: string;
};
const DOMAIN = 'agents.example.com';

function caught(fn: () => unknown): ArdsiteError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ArdsiteError) return err;
    throw new Error(`expected an ArdsiteError, got ${String(err)}`);
  }
  throw new Error('expected a throw');
}

async function caughtAsync(fn: () => Promise<unknown>): Promise<ArdsiteError> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof ArdsiteError) return err;
    throw new Error(`expected an ArdsiteError, got ${String(err)}`);
  }
  throw new Error('expected a throw');
}

const b64u = (hex: string): string => Buffer.from(hex, 'hex').toString('base64url');

describe('parsePrivateKey', () => {
  it('reads the ES256 test JWK (its kid dropped) and refuses a member that is not a JWK member', () => {
    const parsed = parsePrivateKey(ES256_TEXT, 'test-key-es256.jwk.json');
    expect(parsed.alg).toBe('ES256');
    expect(parsed.privateJwk).toEqual({ kty: 'EC', crv: 'P-256', x: ES256.x, y: ES256.y, d: ES256.d });
    for (const extra of [{ comment: 'mine' }, { openapi: '3.0.0', paths: {} }]) {
      const error = caught(() => parsePrivateKey(JSON.stringify({ ...ES256, ...extra }), 'k.json'));
      expect(error.code).toBe('KEY_INVALID');
      expect(error.message).toContain('not a JSON Web Key member');
      expect(error.message).not.toContain('mine');
    }
  });

  it('reads the Ed25519 test JWK', () => {
    const parsed = parsePrivateKey(ED25519_TEXT, 'test-key-ed25519.jwk.json');
    expect(parsed.alg).toBe('EdDSA');
    expect(parsed.privateJwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: ED25519.x, d: ED25519.d });
  });

  it('reads PKCS#8 PEM keys (P-256 and Ed25519) and a SEC1 EC key', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const ecJwk = ec.privateKey.export({ format: 'jwk' });
    const pkcs8 = ec.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    expect(parsePrivateKey(pkcs8, 'key.pem')).toEqual({
      alg: 'ES256',
      privateJwk: { kty: 'EC', crv: 'P-256', x: ecJwk.x, y: ecJwk.y, d: ecJwk.d },
    });
    const sec1 = ec.privateKey.export({ format: 'pem', type: 'sec1' }) as string;
    expect(parsePrivateKey(sec1, 'key.pem').privateJwk.d).toBe(ecJwk.d);

    const ed = generateKeyPairSync('ed25519');
    const edJwk = ed.privateKey.export({ format: 'jwk' });
    const edPem = ed.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    expect(parsePrivateKey(`\n  ${edPem}\n`, 'key.pem')).toEqual({
      alg: 'EdDSA',
      privateJwk: { kty: 'OKP', crv: 'Ed25519', x: edJwk.x, d: edJwk.d },
    });
  });

  it('accepts the RFC 8037 Appendix A.1 Ed25519 key', () => {
    const jwk = {
      kty: 'OKP',
      crv: 'Ed25519',
      d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A',
      x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
    };
    expect(parsePrivateKey(JSON.stringify(jwk), 'rfc8037').alg).toBe('EdDSA');
  });

  it.each([
    ['empty text', ''],
    ['plain words', 'SECRET-CONTENT-MARKER'],
    ['broken JSON', '{"kty":"EC","d":"SECRET-CONTENT-MARKER"'],
    ['a JSON array', '[1,2]'],
    ['a JWK Set', JSON.stringify({ keys: [ES256] })],
    ['a JWK without kty', JSON.stringify({ d: 'SECRET-CONTENT-MARKER' })],
    ['a bad PEM body', '-----BEGIN PRIVATE KEY-----\nSECRETCONTENTMARKER\n-----END PRIVATE KEY-----\n'],
    [
      'an unknown PEM label',
      '-----BEGIN SECRET STUFF-----\nSECRETCONTENTMARKER\n-----END SECRET STUFF-----\n',
    ],
    ['d of the wrong length', JSON.stringify({ ...ES256, d: ES256.d.slice(0, 20) })],
    ['d not base64url', JSON.stringify({ ...ES256, d: `${ES256.d.slice(0, 42)}+` })],
    ['x missing', JSON.stringify({ ...ES256, x: undefined })],
    ['P-256 d = 0', JSON.stringify({ ...ES256, d: b64u('00'.repeat(32)) })],
    ['P-256 d of another key', JSON.stringify({ ...ES256, d: b64u('11'.repeat(32)) })],
  ])('refuses %s with KEY_INVALID, naming the source and not the content', (_label, text) => {
    const err = caught(() => parsePrivateKey(text, 'ARDSITE_SIGNING_KEY'));
    expect(err.code).toBe('KEY_INVALID');
    expect(err.message).toContain('ARDSITE_SIGNING_KEY');
    expect(err.message).not.toContain('SECRET');
    expect(err.message).not.toContain(ES256.d);
  });

  it('says when d is not the private half of x/y', () => {
    const err = caught(() => parsePrivateKey(JSON.stringify({ ...ES256, d: b64u('11'.repeat(32)) }), 'k'));
    expect(err.message).toContain('"d" does not belong to the public key "x"/"y"');
  });

  it('refuses an encrypted PKCS#8 PEM with KEY_INVALID', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const pem = ec.privateKey.export({
      format: 'pem',
      type: 'pkcs8',
      cipher: 'aes-256-cbc',
      passphrase: 'pw',
    }) as string;
    expect(caught(() => parsePrivateKey(pem, 'k.pem')).code).toBe('KEY_INVALID');
  });

  it('refuses a P-256 JWK whose d belongs to another key (KEY_INVALID), without echoing d', async () => {
    const other = await generatePrivateJwk('ES256');
    const err = caught(() =>
      parsePrivateKey(JSON.stringify({ ...ES256, d: other.d }), '/keys/site.jwk.json'),
    );
    expect(err.code).toBe('KEY_INVALID');
    expect(err.message).toContain('/keys/site.jwk.json');
    expect(err.message).not.toContain(other.d);
    expect(err.message).not.toContain(ES256.d);
  });

  it('refuses an Ed25519 JWK whose d belongs to another key (KEY_INVALID)', async () => {
    const other = await generatePrivateJwk('EdDSA');
    const err = caught(() => parsePrivateKey(JSON.stringify({ ...ED25519, d: other.d }), 'k'));
    expect(err.code).toBe('KEY_INVALID');
    expect(err.message).not.toContain(other.d);
  });

  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
  const k1 = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
  const ed448 = generateKeyPairSync('ed448');
  it.each([
    ['an RSA PKCS#8 PEM', rsa.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string],
    ['an RSA PKCS#1 PEM', rsa.privateKey.export({ format: 'pem', type: 'pkcs1' }) as string],
    ['an RSA JWK', JSON.stringify(rsa.privateKey.export({ format: 'jwk' }))],
    ['a P-384 PEM', p384.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string],
    ['a P-384 JWK', JSON.stringify(p384.privateKey.export({ format: 'jwk' }))],
    ['a secp256k1 PEM', k1.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string],
    ['an Ed448 PEM', ed448.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string],
    ['a symmetric oct JWK', JSON.stringify({ kty: 'oct', k: 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0' })],
    ['a public-only EC JWK', JSON.stringify({ kty: 'EC', crv: 'P-256', x: ES256.x, y: ES256.y })],
    ['a public-only Ed25519 JWK', JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: ED25519.x })],
    ['a public key PEM', createPublicKey(rsa.privateKey).export({ format: 'pem', type: 'spki' }) as string],
    ['an EC JWK with alg RS256', JSON.stringify({ ...ES256, alg: 'RS256' })],
    ['an EC JWK with use enc', JSON.stringify({ ...ES256, use: 'enc' })],
    ['an X25519 JWK', JSON.stringify({ kty: 'OKP', crv: 'X25519', x: ED25519.x, d: ED25519.d })],
  ])('refuses %s with KEY_WRONG_TYPE, saying what is accepted', (_label, text) => {
    const err = caught(() => parsePrivateKey(text, 'ARDSITE_SIGNING_KEY'));
    expect(err.code).toBe('KEY_WRONG_TYPE');
    expect(err.message).toContain('ES256');
    expect(err.message).toContain('P-256');
    expect(err.message).toContain('Ed25519');
    expect(err.message).toContain('ARDSITE_SIGNING_KEY');
  });
});

describe('publicJwkThumbprint (RFC 7638)', () => {
  it('matches the RFC 7638 §3.1 example', () => {
    const jwk = {
      kty: 'RSA',
      n: '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw',
      e: 'AQAB',
      alg: 'RS256',
      kid: '2011-04-29',
    };
    expect(publicJwkThumbprint(jwk)).toBe('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs');
  });

  it('matches the RFC 8037 Appendix A.3 Ed25519 example', () => {
    const jwk = { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' };
    expect(publicJwkThumbprint(jwk)).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });

  it('equals jose calculateJwkThumbprint and ignores d, kid, alg, use', async () => {
    for (const jwk of [ES256, ED25519]) {
      const { comment: _c, ...key } = jwk;
      expect(publicJwkThumbprint({ ...key, kid: 'x', alg: 'y', use: 'sig' })).toBe(
        await calculateJwkThumbprint(key, 'sha256'),
      );
    }
  });

  it('refuses a JWK without its required members', () => {
    expect(caught(() => publicJwkThumbprint({ kty: 'EC', crv: 'P-256', x: 'a' })).code).toBe('KEY_INVALID');
    expect(caught(() => publicJwkThumbprint({ kty: 'oct' })).code).toBe('KEY_WRONG_TYPE');
  });
});

describe('createSigningKey', () => {
  it('names the key did:web:<domain>#<thumbprint> and publishes no d', async () => {
    const key = createSigningKey(ES256, DOMAIN);
    const { comment: _c, d: _d, ...pub } = ES256;
    expect(key.alg).toBe('ES256');
    expect(key.kid).toBe(`did:web:${DOMAIN}#${await calculateJwkThumbprint(pub, 'sha256')}`);
    expect(key.publicJwk).toEqual({ ...pub, kid: key.kid, alg: 'ES256', use: 'sig' });
    expect('d' in key.publicJwk).toBe(false);
  });

  it('keeps the private key out of JSON, inspect and enumerable properties', () => {
    for (const jwk of [ES256, ED25519]) {
      const key = createSigningKey(jwk, DOMAIN);
      const shown = [
        JSON.stringify(key),
        inspect(key, { showHidden: true, depth: 10 }),
        String(key),
        Object.keys(key).join(),
      ];
      for (const text of shown) {
        expect(text).not.toContain(jwk.d);
        expect(text).not.toMatch(/"d"/);
      }
      expect(JSON.parse(JSON.stringify(key))).toEqual({
        alg: key.alg,
        kid: key.kid,
        publicJwk: key.publicJwk,
      });
    }
  });

  it('signs ES256 deterministically (same 64 bytes twice), and node:crypto verifies the R||S signature', () => {
    const key = createSigningKey(ES256, DOMAIN);
    const input = new TextEncoder().encode('header.payload');
    const a = key.sign(input);
    const b = key.sign(input);
    expect(a).toHaveLength(64);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const { comment: _c, d: _d, ...pub } = ES256;
    const publicKey = createPublicKey({ key: pub, format: 'jwk' });
    expect(nodeVerify('sha256', input, { key: publicKey, dsaEncoding: 'ieee-p1363' }, a)).toBe(true);
    const flipped = Uint8Array.from(a);
    flipped[10] = (flipped[10] ?? 0) ^ 1;
    expect(nodeVerify('sha256', input, { key: publicKey, dsaEncoding: 'ieee-p1363' }, flipped)).toBe(false);
  });

  it('reproduces the RFC 6979 §A.2.5 P-256/SHA-256 "sample" signature (r exact, s in low-S form)', () => {
    const jwk = {
      kty: 'EC',
      crv: 'P-256',
      d: b64u('C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721'),
      x: b64u('60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6'),
      y: b64u('7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299'),
    } as PrivateSigningJwk;
    const sig = createSigningKey(jwk, DOMAIN).sign(new TextEncoder().encode('sample'));
    const r = Buffer.from(sig.slice(0, 32)).toString('hex').toUpperCase();
    const s = BigInt(`0x${Buffer.from(sig.slice(32)).toString('hex')}`);
    const n = BigInt('0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551');
    const rfcS = BigInt('0xF7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8');
    expect(r).toBe('EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716');
    expect(s).toBe(n - rfcS);
  });

  it('signs Ed25519 deterministically', () => {
    const key = createSigningKey(ED25519, DOMAIN);
    const input = new TextEncoder().encode('header.payload');
    expect(key.alg).toBe('EdDSA');
    expect(Buffer.from(key.sign(input)).equals(Buffer.from(key.sign(input)))).toBe(true);
  });

  it('refuses a bad private JWK and a bad domain', () => {
    expect(caught(() => createSigningKey({ ...ES256, d: ED25519.d }, DOMAIN)).code).toBe('KEY_INVALID');
    expect(caught(() => createSigningKey(ES256, 'https://agents.example.com/')).code).toBe(
      'SCHEMA_INVALID_VALUE',
    );
  });
});

describe('generatePrivateJwk', () => {
  it.each(['ES256', 'EdDSA'] as const)('makes a valid %s key, different each time', async (alg) => {
    const a = await generatePrivateJwk(alg);
    const b = await generatePrivateJwk(alg);
    expect(parsePrivateKey(JSON.stringify(a), 'generated').alg).toBe(alg);
    expect(a.d).not.toBe(b.d);
  });
  it('defaults to ES256', async () => {
    expect((await generatePrivateJwk()).crv).toBe('P-256');
  });
});

describe('resolveSigningKey', () => {
  const dirs: string[] = [];
  const tmp = (): string => {
    const d = mkdtempSync(path.join(tmpdir(), 'ardsite-keys-'));
    dirs.push(d);
    return d;
  };
  const gitRepo = (ignore: string | null): string => {
    const d = tmp();
    execFileSync('git', ['init', '-q'], { cwd: d, stdio: 'ignore' });
    if (ignore !== null) writeFileSync(path.join(d, '.gitignore'), ignore);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const base = { domain: DOMAIN };

  it('takes ARDSITE_SIGNING_KEY first (JWK or PEM text)', async () => {
    const root = tmp();
    writeFileSync(path.join(root, 'other.jwk.json'), ED25519_TEXT);
    const r = await resolveSigningKey({
      ...base,
      root,
      keyFile: 'other.jwk.json',
      env: { ARDSITE_SIGNING_KEY: ES256_TEXT },
    });
    expect(r).toMatchObject({ source: 'ARDSITE_SIGNING_KEY', created: false, ephemeral: false });
    expect(r.key.kid).toBe(createSigningKey(ES256, DOMAIN).kid);

    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    expect((await resolveSigningKey({ ...base, root, env: { ARDSITE_SIGNING_KEY: pem } })).key.alg).toBe(
      'EdDSA',
    );
  });

  it('names ARDSITE_SIGNING_KEY, never the content, when it is malformed', async () => {
    const err = await caughtAsync(() =>
      resolveSigningKey({ ...base, root: tmp(), env: { ARDSITE_SIGNING_KEY: `{"d":"${ES256.d}"` } }),
    );
    expect(err.code).toBe('KEY_INVALID');
    expect(err.message).toContain('ARDSITE_SIGNING_KEY');
    expect(err.message).not.toContain(ES256.d);
  });

  it('then ARDSITE_SIGNING_KEY_FILE, then signing.keyFile (relative to root)', async () => {
    const root = tmp();
    writeFileSync(path.join(root, 'a.jwk.json'), ES256_TEXT);
    writeFileSync(path.join(root, 'b.jwk.json'), ED25519_TEXT);
    const a = await resolveSigningKey({
      ...base,
      root,
      keyFile: 'b.jwk.json',
      env: { ARDSITE_SIGNING_KEY_FILE: 'a.jwk.json' },
    });
    expect(a).toMatchObject({ source: 'a.jwk.json', created: false });
    expect(a.key.alg).toBe('ES256');
    const b = await resolveSigningKey({ ...base, root, keyFile: 'b.jwk.json', env: {} });
    expect(b).toMatchObject({ source: 'b.jwk.json', created: false });
    expect(b.key.alg).toBe('EdDSA');
  });

  it('refuses a configured key file that does not exist (KEY_MISSING) and names a malformed one', async () => {
    const root = tmp();
    const missing = await caughtAsync(() =>
      resolveSigningKey({ ...base, root, keyFile: 'nope.jwk.json', env: {} }),
    );
    expect(missing.code).toBe('KEY_MISSING');
    expect(missing.message).toContain('nope.jwk.json');
    const envMissing = await caughtAsync(() =>
      resolveSigningKey({ ...base, root, env: { ARDSITE_SIGNING_KEY_FILE: '/no/such/key.pem' } }),
    );
    expect(envMissing.code).toBe('KEY_MISSING');
    expect(envMissing.message).toContain('ARDSITE_SIGNING_KEY_FILE');

    writeFileSync(path.join(root, 'bad.jwk.json'), JSON.stringify({ ...ES256, d: ED25519.d }));
    const bad = await caughtAsync(() =>
      resolveSigningKey({ ...base, root, keyFile: 'bad.jwk.json', env: {} }),
    );
    expect(bad.code).toBe('KEY_INVALID');
    expect(bad.message).toContain('bad.jwk.json');
    expect(bad.message).not.toContain(ED25519.d);
  });

  it('uses .ardsite/keys/signing.jwk.json when it exists', async () => {
    const root = tmp();
    mkdirSync(path.join(root, '.ardsite', 'keys'), { recursive: true });
    writeFileSync(path.join(root, DEFAULT_KEY_FILE), ED25519_TEXT);
    const r = await resolveSigningKey({ ...base, root, env: { CI: 'true' }, requireKey: true });
    expect(r).toMatchObject({ source: DEFAULT_KEY_FILE, created: false, ephemeral: false });
    expect(r.key.alg).toBe('EdDSA');
  });

  it('refuses a found key of another algorithm than the configured one', async () => {
    const err = await caughtAsync(() =>
      resolveSigningKey({
        ...base,
        root: tmp(),
        algorithm: 'EdDSA',
        env: { ARDSITE_SIGNING_KEY: ES256_TEXT },
      }),
    );
    expect(err.code).toBe('KEY_WRONG_TYPE');
  });

  it('with requireKey and no key: KEY_MISSING, nothing written', async () => {
    const root = gitRepo('.ardsite/\n');
    const err = await caughtAsync(() => resolveSigningKey({ ...base, root, requireKey: true, env: {} }));
    expect(err.code).toBe('KEY_MISSING');
    expect(existsSync(path.join(root, '.ardsite'))).toBe(false);
  });

  it('in CI without a key: KEY_MISSING explaining how to provide one, nothing written', async () => {
    const root = gitRepo('.ardsite/\n');
    const err = await caughtAsync(() => resolveSigningKey({ ...base, root, env: { CI: 'true' } }));
    expect(err.code).toBe('KEY_MISSING');
    for (const hint of [
      'ARDSITE_SIGNING_KEY',
      'ARDSITE_SIGNING_KEY_FILE',
      'npm run keygen',
      'ARDSITE_DEV_KEY=1',
    ]) {
      expect(err.message).toContain(hint);
    }
    // The project is not the working folder: the command to make its key names it.
    expect(err.message).toContain(`\`npm run keygen -- --root ${path.relative(process.cwd(), root)}\``);
    expect(existsSync(path.join(root, '.ardsite'))).toBe(false);
  });

  it('in CI with ARDSITE_DEV_KEY=1: an in-memory throw-away key, written nowhere', async () => {
    const root = tmp();
    const r = await resolveSigningKey({ ...base, root, env: { CI: '1', ARDSITE_DEV_KEY: '1' } });
    expect(r.ephemeral).toBe(true);
    expect(r.created).toBe(false);
    expect(r.key.alg).toBe('ES256');
    expect(existsSync(path.join(root, '.ardsite'))).toBe(false);
    const ed = await resolveSigningKey({
      ...base,
      root,
      algorithm: 'EdDSA',
      env: { CI: 'yes', ARDSITE_DEV_KEY: '1' },
    });
    expect(ed.key.alg).toBe('EdDSA');
  });

  it('outside CI with ARDSITE_DEV_KEY=1: a throw-away key too, even where no key file could be written', async () => {
    // Not a git repository: without the variable this is KEY_NOT_IGNORED, whose message suggests it.
    const root = tmp();
    const refused = await caughtAsync(() => resolveSigningKey({ ...base, root, env: {} }));
    expect(refused.code).toBe('KEY_NOT_IGNORED');
    expect(refused.message).toContain('ARDSITE_DEV_KEY=1');
    for (const env of [{ ARDSITE_DEV_KEY: '1' }, { CI: 'false', ARDSITE_DEV_KEY: '1' }]) {
      const r = await resolveSigningKey({ ...base, root, env });
      expect(r).toMatchObject({
        ephemeral: true,
        created: false,
        source: 'throw-away key (ARDSITE_DEV_KEY=1)',
      });
    }
    expect(existsSync(path.join(root, '.ardsite'))).toBe(false);
    // A key the project has still wins: the variable never replaces a real identity.
    const kept = gitRepo('.ardsite/\n');
    const made = await resolveSigningKey({ ...base, root: kept, env: {} });
    const again = await resolveSigningKey({ ...base, root: kept, env: { ARDSITE_DEV_KEY: '1' } });
    expect(again).toMatchObject({ ephemeral: false, source: DEFAULT_KEY_FILE });
    expect(again.key.kid).toBe(made.key.kid);
  });

  it('creates the key file with mode 0600 (folders 0700) where git ignores .ardsite/, then reuses it', async () => {
    const root = gitRepo('node_modules/\n.ardsite/\n');
    const r = await resolveSigningKey({ ...base, root, env: { CI: 'false' } });
    expect(r).toMatchObject({ source: DEFAULT_KEY_FILE, created: true, ephemeral: false });
    const file = path.join(root, DEFAULT_KEY_FILE);
    if (process.platform !== 'win32') {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(path.join(root, '.ardsite')).mode & 0o777).toBe(0o700);
      expect(statSync(path.join(root, '.ardsite', 'keys')).mode & 0o777).toBe(0o700);
    }
    const stored = parsePrivateKey(readFileSync(file, 'utf8'), file);
    expect(createSigningKey(stored.privateJwk, DOMAIN).kid).toBe(r.key.kid);

    const again = await resolveSigningKey({ ...base, root, env: {} });
    expect(again).toMatchObject({ created: false, source: DEFAULT_KEY_FILE });
    expect(again.key.kid).toBe(r.key.kid);
  });

  it("never shows the created key's d in any thrown message, JSON or inspect output", async () => {
    const root = gitRepo('.ardsite/\n');
    const r = await resolveSigningKey({ ...base, root, env: {} });
    const file = path.join(root, DEFAULT_KEY_FILE);
    const text = readFileSync(file, 'utf8');
    const d = (JSON.parse(text) as { d: string }).d;
    const messages: string[] = [];
    const collect = async (fn: () => Promise<unknown>): Promise<void> => {
      messages.push((await caughtAsync(fn)).message);
    };
    const other = await generatePrivateJwk('ES256');
    const variants = [
      text.replace(d, other.d), // d of another key
      text.replace(d, d.slice(0, 30)), // truncated d
      text.slice(0, text.length - 5), // broken JSON
      text.replace('"P-256"', '"P-384"'), // wrong curve
      text.replace('"EC"', '"RSA"'),
    ];
    for (const variant of variants) {
      writeFileSync(file, variant);
      await collect(() => resolveSigningKey({ ...base, root, env: {} }));
      await collect(() => resolveSigningKey({ ...base, root, env: { ARDSITE_SIGNING_KEY: variant } }));
    }
    writeFileSync(file, text);
    await collect(() => resolveSigningKey({ ...base, root, algorithm: 'EdDSA', env: {} }));
    expect(messages).toHaveLength(variants.length * 2 + 1);
    for (const m of messages) {
      expect(m).not.toContain(d);
      expect(m).not.toContain(d.slice(0, 30));
      expect(m).not.toContain(other.d);
    }
    expect(JSON.stringify(r)).not.toContain(d);
    expect(inspect(r, { depth: 10, showHidden: true })).not.toContain(d);
  });

  it('refuses to create the key where git does not ignore it (KEY_NOT_IGNORED), nothing written', async () => {
    const root = gitRepo('node_modules/\n');
    const err = await caughtAsync(() => resolveSigningKey({ ...base, root, env: {} }));
    expect(err.code).toBe('KEY_NOT_IGNORED');
    expect(err.message).toContain('git does not ignore');
    expect(err.message).toContain('.gitignore');
    expect(err.message).toContain('.ardsite/');
    expect(existsSync(path.join(root, '.ardsite'))).toBe(false);
  });

  it('refuses to create the key outside a git repository (KEY_NOT_IGNORED)', async () => {
    const root = tmp();
    const err = await caughtAsync(() => resolveSigningKey({ ...base, root, env: {} }));
    expect(err.code).toBe('KEY_NOT_IGNORED');
    expect(err.message).toContain('not inside a git repository');
    expect(existsSync(path.join(root, '.ardsite'))).toBe(false);
  });
});

describe('loadPublicKeysForRotation', () => {
  const now = new Date('2026-06-01T00:00:00Z');
  const { comment: _c1, d: _d1, ...esPub } = ES256;
  const { comment: _c2, d: _d2, ...edPub } = ED25519;

  it('keeps keys whose retireAt is in the future and not revoked, with the kid they had when active', () => {
    const out = loadPublicKeysForRotation(
      [
        { jwk: esPub, retireAt: '2026-07-01' },
        { jwk: edPub, retireAt: '2026-05-01' },
      ],
      now,
      DOMAIN,
    );
    expect(out).toEqual([createSigningKey(ES256, DOMAIN).publicJwk]);
  });

  it('drops revoked keys at once, and keys at or past retireAt', () => {
    expect(
      loadPublicKeysForRotation([{ jwk: esPub, retireAt: '2030-01-01', revoked: true }], now, DOMAIN),
    ).toEqual([]);
    expect(
      loadPublicKeysForRotation([{ jwk: esPub, retireAt: '2026-06-01T00:00:00Z' }], now, DOMAIN),
    ).toEqual([]);
  });

  it('keeps a key without retireAt, recomputes kid/alg/use, and drops duplicates', () => {
    const out = loadPublicKeysForRotation(
      [{ jwk: { ...edPub, kid: 'old', alg: 'EdDSA', use: 'sig' } }, { jwk: edPub, retireAt: '2027-01-01' }],
      now,
      DOMAIN,
    );
    expect(out).toEqual([createSigningKey(ED25519, DOMAIN).publicJwk]);
  });

  it('refuses a listed key with private members (KEY_PRIVATE_PUBLISHED), without echoing them', () => {
    const err = caught(() =>
      loadPublicKeysForRotation([{ jwk: ES256, retireAt: '2027-01-01' }], now, DOMAIN),
    );
    expect(err.code).toBe('KEY_PRIVATE_PUBLISHED');
    expect(err.message).not.toContain(ES256.d);
  });

  it('refuses a bad retireAt, an unsupported key and a point off the curve', () => {
    expect(
      caught(() => loadPublicKeysForRotation([{ jwk: esPub, retireAt: 'next year' }], now, DOMAIN)).code,
    ).toBe('SCHEMA_INVALID_VALUE');
    expect(
      caught(() =>
        loadPublicKeysForRotation(
          [{ jwk: { kty: 'RSA', n: 'AQAB', e: 'AQAB' }, retireAt: '2027-01-01' }],
          now,
          DOMAIN,
        ),
      ).code,
    ).toBe('KEY_WRONG_TYPE');
    const offCurve = { ...esPub, y: esPub.x };
    expect(caught(() => loadPublicKeysForRotation([{ jwk: offCurve }], now, DOMAIN)).code).toBe(
      'KEY_INVALID',
    );
  });
});
