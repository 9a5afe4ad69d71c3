/**
 * (Re)generates the known-answer vectors in `test/vectors/` from the committed TEST-ONLY keys
 * (DESIGN.md §4 "Known-answer vectors"): for each key, one realistic trustManifest (ARD draft §3.5),
 * the hex of its RFC 8785 JCS bytes, the protected header, the RFC 7515 §5.1 signing input and the
 * expected compact detached JWS (RFC 7515 Appendix F); and one signed A2A card (A2A spec §8.4): a small
 * hybrid card, its canonical payload as @a2a-js/sdk's `canonicalizeAgentCard` makes it, the protected
 * header, the signing input and the expected `signatures[0]`; and the same for the whole-card signature
 * `signatures[1]` (RFC 8785 JCS of the card minus `signatures`; docs/trust-profile.md) (ES256 key).
 *
 * Usage: `npx tsx scripts/make-vectors.ts` writes the files; `--check` only compares and exits 1 when a
 * file differs. The keys themselves are never regenerated here (they are fixed test data).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalBytes } from '../src/core/trust/jcs.js';
import { sha256Digest } from '../src/core/ard/digest.js';
import { createSigningKey } from '../src/core/trust/keys.js';
import { parsePrivateKey } from '../src/core/trust/key-checks.js';
import { signCompactDetached } from '../src/core/trust/jws.js';
import {
  agentCardSigningPayload,
  jwksUrl,
  signAgentCard,
  wholeCardSigningPayload,
} from '../src/core/trust/card-signature.js';
import type { JsonObject } from '../src/core/a2a/card.js';

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

/**
 * The card of the signed-card vector, without `signatures`: A2A v1.0 fields, the RAM twice (the
 * top-level copy, which the SDK's canonical form drops, and the extension copy, which it keeps), the
 * ARD entry extension and `false` values (proto defaults, also dropped). Small but shaped like a
 * card the build emits (DESIGN.md §3).
 */
export function vectorCard(): JsonObject {
  const ram: JsonObject = {
    resources: [
      {
        id: 'google-calendar-events-v3',
        interactionProtocol: 'REST',
        owner: 'CONSUMER',
        displayName: 'Google Calendar Events',
        description: 'A scheduling service managing user events and availability.',
      },
    ],
    operations: [
      {
        id: 'google-calendar-events-v3-insert',
        resource: 'google-calendar-events-v3',
        description: 'Creates a new event on a calendar.',
        apiOperationSpec: { httpMethod: 'POST' },
      },
    ],
    resourceAccesses: [
      {
        id: 'add-trip-to-calendar',
        operation: 'google-calendar-events-v3-insert',
        identityUsed: 'END_USER',
        confirmationRequired: true,
        accessJustification: 'To put your trip in your calendar — only when you ask.',
        necessity: 'OPTIONAL',
      },
    ],
  };
  return {
    name: 'Trip Planner',
    description: 'Plans trips and puts them in your calendar.',
    supportedInterfaces: [
      { url: `https://api.${DOMAIN}/a2a/trip-planner`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    provider: { url: 'https://www.example.com/', organization: 'Example Travel Co.' },
    version: '1.2.0',
    documentationUrl: `https://${DOMAIN}/agents/trip-planner/`,
    capabilities: {
      streaming: true,
      extensions: [
        {
          uri: 'https://github.com/a2aproject/A2A/issues/1426',
          description: 'Resource Access Manifest (RAM).',
          params: ram,
        },
        {
          uri: 'urn:ardsite:ext:ard-entry:v1',
          description: 'The ARD entry this card belongs to and its publisher (ARD draft §4.3.1).',
          params: { identifier: `urn:air:${DOMAIN}:travel:trip-planner`, publisher: `did:web:${DOMAIN}` },
        },
      ],
    },
    securitySchemes: {
      bearer: {
        type: 'http',
        description: 'A token from the Example Travel sign-in.',
        scheme: 'Bearer',
        bearerFormat: 'JWT',
        httpAuthSecurityScheme: {
          description: 'A token from the Example Travel sign-in.',
          scheme: 'Bearer',
          bearerFormat: 'JWT',
        },
      },
    },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'plan-trip',
        name: 'Plan a trip',
        description: 'Plans a trip and, if you agree, adds it to your calendar.',
        tags: ['travel', 'planning'],
        examples: ['Plan three days in Lisbon'],
      },
    ],
    // The v0.3 fields of a hybrid card (DESIGN.md §3, §9), outside @a2a-js/sdk's canonical form.
    protocolVersion: '0.3.0',
    url: `https://api.${DOMAIN}/a2a/trip-planner/v0`,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [{ url: `https://api.${DOMAIN}/a2a/trip-planner/v0`, transport: 'JSONRPC' }],
    resourceAccessManifest: ram,
  };
}

async function makeCardVector(keyFile: string): Promise<Record<string, unknown>> {
  const { privateJwk } = parsePrivateKey(readFileSync(path.join(VECTORS, keyFile), 'utf8'), keyFile);
  const key = createSigningKey(privateJwk, DOMAIN);
  const card = vectorCard();
  const payload = agentCardSigningPayload(card);
  const wholePayload = wholeCardSigningPayload(card);
  const signed = await signAgentCard(card, key, DOMAIN);
  const signatures = signed.signatures as Array<{ protected: string; signature: string }>;
  const [signature, wholeCardSignature] = signatures as [
    { protected: string; signature: string },
    { protected: string; signature: string },
  ];
  const headerOf = (s: { protected: string }) =>
    JSON.parse(Buffer.from(s.protected, 'base64url').toString('utf8')) as Record<string, unknown>;
  const protectedHeader = headerOf(signature);
  if (protectedHeader.jku !== jwksUrl(DOMAIN)) throw new Error('unexpected jku');
  return {
    comment: 'TEST ONLY — known-answer vector made by scripts/make-vectors.ts from ' + keyFile,
    keyFile,
    kid: key.kid,
    card,
    canonicalPayload: new TextDecoder().decode(payload),
    protectedHeader,
    signingInput: `${signature.protected}.${Buffer.from(payload).toString('base64url')}`,
    signature,
    wholeCardPayload: new TextDecoder().decode(wholePayload),
    wholeCardProtectedHeader: headerOf(wholeCardSignature),
    wholeCardSigningInput: `${wholeCardSignature.protected}.${Buffer.from(wholePayload).toString('base64url')}`,
    wholeCardSignature,
    signatures,
  };
}

const outputs: Array<[string, () => Record<string, unknown> | Promise<Record<string, unknown>>]> = [
  ['trust-manifest-es256.json', () => makeVector('test-key-es256.jwk.json')],
  ['trust-manifest-ed25519.json', () => makeVector('test-key-ed25519.jwk.json')],
  ['signed-card-es256.json', () => makeCardVector('test-key-es256.jwk.json')],
];

const check = process.argv.includes('--check');
let differs = false;
for (const [out, make] of outputs) {
  const text = `${JSON.stringify(await make(), null, 2)}\n`;
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
