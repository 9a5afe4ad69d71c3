/**
 * (Re)generates the known-answer vectors in `test/vectors/` from the committed TEST-ONLY keys
 * (DESIGN.md §4 "Known-answer vectors"): for each key, one realistic trustManifest (ARD draft §3.5),
 * the hex of its RFC 8785 JCS bytes, the protected header, the RFC 7515 §5.1 signing input and the
 * expected compact detached JWS (RFC 7515 Appendix F).
 *
 * Usage: `npx tsx scripts/make-vectors.ts` writes the files; `--check` only compares and exits 1 when a
 * file differs. The keys themselves are never regenerated here (they are fixed test data).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalBytes } from '../src/core/jcs.js';
import { sha256Digest } from '../src/core/digest.js';
import { createSigningKey, parsePrivateKey } from '../src/core/keys.js';
import { signCompactDetached } from '../src/core/jws.js';

const VECTORS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'test', 'vectors');
const DOMAIN = 'agents.example.com';

/** A fixed stand-in for the bytes of a served agent card; only its digest goes into the manifest. */
const CARD_BYTES = '{\n  "name": "Trip Planner",\n  "version": "1.2.0"\n}\n';

/** The trustManifest of the vectors, without `signature` (ARD draft §3.5; DESIGN.md §4 step 5). */
export function vectorTrustManifest(): Record<string, unknown> {
  return {
    identity: `did:web:${DOMAIN}`,
    identityType: 'did',
    issuedAt: '2026-01-15T09:30:00Z',
    expiresAt: '2027-01-15T09:30:00Z',
    subject: {
      identifier: `urn:air:${DOMAIN}:travel:trip-planner`,
      type: 'application/a2a-agent-card+json',
      version: '1.2.0',
      digest: sha256Digest(CARD_BYTES),
    },
    trustSchema: {
      identifier: 'urn:ardsite:trust-profile:did-web-jcs-jws',
      version: '1',
      verificationMethods: ['did:web'],
    },
  };
}

function makeVector(keyFile: string): Record<string, unknown> {
  const { privateJwk } = parsePrivateKey(readFileSync(path.join(VECTORS, keyFile), 'utf8'), keyFile);
  const key = createSigningKey(privateJwk, DOMAIN);
  const trustManifest = vectorTrustManifest();
  const jcs = canonicalBytes(trustManifest);
  const protectedHeader = { alg: key.alg, kid: key.kid };
  const signingInput = `${Buffer.from(JSON.stringify(protectedHeader)).toString('base64url')}.${Buffer.from(jcs).toString('base64url')}`;
  return {
    comment: 'TEST ONLY — known-answer vector made by scripts/make-vectors.ts from ' + keyFile,
    keyFile,
    kid: key.kid,
    trustManifest,
    jcsHex: Buffer.from(jcs).toString('hex'),
    protectedHeader,
    signingInput,
    jws: signCompactDetached(jcs, protectedHeader, key),
  };
}

const outputs: Array<[string, string]> = [
  ['trust-manifest-es256.json', 'test-key-es256.jwk.json'],
  ['trust-manifest-ed25519.json', 'test-key-ed25519.jwk.json'],
];

const check = process.argv.includes('--check');
let differs = false;
for (const [out, keyFile] of outputs) {
  const text = `${JSON.stringify(makeVector(keyFile), null, 2)}\n`;
  const file = path.join(VECTORS, out);
  if (check) {
    let old = '';
    try {
      old = readFileSync(file, 'utf8');
    } catch {
      // missing counts as different
    }
    if (old !== text) {
      differs = true;
      console.error(`differs: test/vectors/${out}`);
    }
  } else {
    writeFileSync(file, text);
    console.log(`wrote test/vectors/${out}`);
  }
}
if (differs) process.exitCode = 1;
