/**
 * The benchmark floor's JSON per agent, by plain templating of its records (./agent-model.ts): the A2A
 * agent card with the Resource Access Manifest extension (its resources, operations and accesses, the
 * permission set, the permission file's address) and two JWS signatures (RFC 7515 §7.2.1, general JSON
 * serialization), the permission file, and the ARD entry with its trust manifest. The same members and
 * about the same bytes as ardsite's: digests and signatures are placeholders of the right length (the
 * floor neither hashes its files nor signs them), and nothing is canonicalised.
 */
import { DOMAIN, ORGANIZATION, ORIGIN, type FloorModel, type PermissionSet } from './agent-model';

/** The key id of the floor's placeholder key (the length of a did:web key id with a JWK thumbprint). */
export const KID = `did:web:${DOMAIN}#ZbVq3W2k1m7QnRt5Yx8Cv0PaLs4DfGh6JkUoEi9Nw2M`;
/** The RAM extension's URI, as in the card. */
const RAM_URI = 'https://github.com/a2aproject/A2A/issues/1426';
/** The build's date (SOURCE_DATE_EPOCH of the bench). */
export const UPDATED_AT = '2025-11-24T16:00:00Z';
const TRUST_PROFILE = {
  identifier: 'urn:ardsite:trust-profile:did-web-jcs-jws',
  version: '1',
  verificationMethods: ['did:web'],
};

/** A placeholder ES256 signature: 64 bytes in base64url, as long as a real one. */
const SIGNATURE = 'S'.repeat(86);

/** A JWS protected header in base64url (encoding only: nothing is signed). */
const protectedHeader = (header: object) => Buffer.from(JSON.stringify(header)).toString('base64url');

/** The two signatures of a card: over the card as signed, and over the card as served. */
const CARD_SIGNATURES = [
  {
    protected: protectedHeader({
      alg: 'ES256',
      jku: `${ORIGIN}/.well-known/jwks.json`,
      kid: KID,
      typ: 'JOSE',
    }),
    signature: SIGNATURE,
  },
  {
    protected: protectedHeader({
      alg: 'ES256',
      canonicalization: 'jcs-served-card',
      jku: `${ORIGIN}/.well-known/jwks.json`,
      kid: KID,
      typ: 'JOSE',
    }),
    signature: SIGNATURE,
  },
];

/** A placeholder SHA-256 digest for agent `n` and file `kind`, as long as a real one. */
export function placeholderDigest(n: number, kind: string): string {
  return `sha256:${`${kind}${n.toString(16)}`.padEnd(64, '0').slice(0, 64)}`;
}

/** The agent's URN (ARD identifier). */
export const identifierOf = (m: FloorModel) => `urn:air:${DOMAIN}:bench:${m.slug}`;

/** The agent's skills, as in its card. */
export function cardSkills(m: FloorModel) {
  return ['plan', 'search', 'summarise'].map((verb, k) => ({
    id: `${verb}-${m.n}`,
    name: `${verb[0]!.toUpperCase()}${verb.slice(1)} for agent ${m.n}`,
    description: `${verb} things on your behalf, the synthetic way.`,
    tags: ['synthetic', verb],
    examples: [
      `Please ${verb} my week number ${m.n}`,
      `Can you ${verb} everything about topic ${(m.n * 7 + k) % 97}?`,
    ],
  }));
}

/** The agent's Resource Access Manifest: resources, operations and accesses, as the card carries them. */
function ram(m: FloorModel) {
  return {
    resources: m.resources.map((r) => ({
      id: r.id,
      interactionProtocol: r.protocol,
      owner: r.owner,
      displayName: `Synthetic ${r.word} service ${r.i}`,
      description: `A synthetic ${r.word} service used to measure ardsite at scale.`,
      developerDocumentationUrl: `https://docs.service${r.i}.example/${r.word}`,
      spec: {
        specUrl: `https://api.service${r.i}.example/openapi.json`,
        resourcePath: r.protocol === 'MCP' ? `${r.word}_lookup` : `/${r.word}`,
      },
    })),
    operations: m.operations.map((o) => ({
      id: o.id,
      resource: o.res.id,
      description: o.description,
      developerDocumentationUrl: [`https://docs.service${o.res.i}.example/${o.res.word}/${o.id}`],
      ...(o.res.protocol === 'REST'
        ? {
            apiOperationSpec: o.id.endsWith('-list')
              ? { operationId: `${o.res.word}.get`, httpMethod: 'GET' }
              : { operationId: `${o.res.word}.post`, httpMethod: 'POST' },
          }
        : {}),
    })),
    resourceAccesses: m.accesses.map((x) => ({
      id: x.id,
      operation: x.operation,
      identityUsed: x.asUser ? 'END_USER' : 'AGENT',
      confirmationRequired: x.write,
      accessJustification: x.why,
      necessity: x.necessity,
    })),
  };
}

/** The distinct values, sorted. */
const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/** Whether a permission set has any entry. */
const hasAny = (set: PermissionSet) => Object.keys(set).length > 0;

/** The agent card (A2A `AgentCard` with the RAM extension), as JSON text. */
export function cardText(m: FloorModel): string {
  const manifest = ram(m);
  const readOnly = sorted(m.operations.filter((o) => o.res.protocol !== 'REST').map((o) => o.id));
  const card = {
    name: m.name,
    description: m.description,
    supportedInterfaces: [
      { url: `https://api.${DOMAIN}/a2a/agent-${m.n}`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    provider: { url: 'https://www.example.com/', organization: ORGANIZATION },
    version: m.version,
    documentationUrl: `${ORIGIN}/agents/${m.slug}/`,
    capabilities: {
      extensions: [
        {
          uri: RAM_URI,
          description:
            'Resource Access Manifest (RAM): the outside resources this agent accesses for its users, which operations, as whom, why and whether it asks first.',
          params: {
            ...manifest,
            skillAccesses: Object.fromEntries(
              ['plan', 'search', 'summarise'].map((verb) => [
                `${verb}-${m.n}`,
                m.accesses.filter((x) => x.skill === verb).map((x) => x.id),
              ]),
            ),
            permissions: {
              ...(hasAny(m.permissionSet)
                ? { permissionSet: m.permissionSet, skillPermissionSets: m.skillSets }
                : {}),
              file: `${ORIGIN}/agents/${m.slug}/permissions.json`,
              digest: placeholderDigest(m.n, 'permissions'),
            },
            // The operations the RAM marks read-only (MCP and A2A calls here), when there are any.
            ...(readOnly.length > 0 ? { readOnlyOperations: readOnly } : {}),
          },
        },
        {
          uri: 'urn:ardsite:ext:ard-entry:v1',
          description: 'The ARD entry this card belongs to and its publisher (ARD draft section 4.3.1).',
          params: { identifier: identifierOf(m), publisher: `did:web:${DOMAIN}` },
        },
      ],
    },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: cardSkills(m),
    resourceAccessManifest: manifest,
    signatures: CARD_SIGNATURES,
  };
  return `${JSON.stringify(card, null, 2)}\n`;
}

/** The scopes a REST service of `word` accepts for an operation: its own, or the admin scope. */
function accepted(word: string, scope: string) {
  return [scope, `${word}.admin`].map((s) => ({
    requirements: [{ scheme: 'oauth', type: 'oauth2', scopes: [s] }],
  }));
}

/** The other operations a scope allows on a synthetic REST service (its spec: 19 parts of each kind). */
function alsoGrants(word: string, scope: string): string[] {
  if (!scope.endsWith('.read')) return [];
  return Array.from({ length: 19 }, (_, k) => `${word}.part${k}.get`).sort();
}

/** The permission file (what each access needs, from the stored specs), as JSON text. */
export function permissionsText(m: FloorModel): string {
  const withSpec = m.accesses.filter((x) => x.res.protocol !== 'A2A');
  const file = {
    agent: identifierOf(m),
    specs: m.resources
      .filter((r) => r.protocol !== 'A2A')
      .map((r) => ({
        resource: r.id,
        format: r.protocol === 'MCP' ? 'mcp-tools' : 'openapi',
        specUrl: `https://api.service${r.i}.example/openapi.json`,
        digest: placeholderDigest(r.i, 'spec'),
      })),
    accesses: withSpec.map((x) => {
      const base = {
        access: x.id,
        operation: x.operation,
        resource: x.res.id,
        necessity: x.necessity,
        identityUsed: x.asUser ? 'END_USER' : 'AGENT',
      };
      if (!x.scope)
        return { ...base, specOperation: `${x.res.word}_lookup`, readOnly: true, openWorld: true };
      const also = alsoGrants(x.res.word, x.scope);
      return {
        ...base,
        specOperation: `${x.res.word}.${x.operation.endsWith('-list') ? 'get' : 'post'}`,
        readOnly: x.operation.endsWith('-list'),
        accepted: accepted(x.res.word, x.scope),
        leastPrivilege: {
          requirements: [{ scheme: 'oauth', type: 'oauth2', scopes: [x.scope] }],
          grantsCount: also.length + 1,
          alsoGrants: also,
        },
      };
    }),
    ...(hasAny(m.permissionSet) ? { permissionSet: m.permissionSet, skillPermissionSets: m.skillSets } : {}),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/**
 * The agent's ARD entry with its RAM summary and its trust manifest, signed (`signed`: the manifest's and
 * the pages' entry) or with the ai-catalog's shorter trust manifest and a link to the signed manifest.
 */
export function entryOf(m: FloorModel, signed: boolean): Record<string, unknown> {
  const identifier = identifierOf(m);
  const digest = placeholderDigest(m.n, 'card');
  const scopes = Object.values(m.permissionSet).flatMap((entries) => entries.flatMap((e) => e.scopes));
  const required = (m.permissionSet.required ?? []).flatMap((e) => e.scopes);
  const skills = cardSkills(m);
  return {
    '@context': { ram: `${RAM_URI}#` },
    identifier,
    displayName: m.name,
    type: 'application/a2a-agent-card+json',
    url: `${ORIGIN}/agents/${m.slug}/agent-card.json`,
    version: m.version,
    description: m.description,
    tags: ['synthetic', 'plan', 'search', 'summarise'],
    capabilities: skills.map((s) => s.name),
    representativeQueries: skills.flatMap((s) => s.examples).slice(0, 5),
    updatedAt: UPDATED_AT,
    digest,
    'ram:owners': sorted(m.resources.map((r) => r.owner)),
    'ram:interactionProtocols': sorted(m.resources.map((r) => r.protocol)),
    'ram:identitiesUsed': sorted(m.accesses.map((x) => (x.asUser ? 'END_USER' : 'AGENT'))),
    'ram:resourceIds': sorted(m.resources.map((r) => r.id)),
    'ram:operationIds': sorted(m.operations.map((o) => o.id)),
    'ram:accessCount': m.accesses.length,
    'ram:asksFirstCount': m.accesses.filter((x) => x.write).length,
    'ram:requiredCount': m.accesses.filter((x) => x.necessity === 'REQUIRED').length,
    'ram:consumerResourceCount': m.resources.filter((r) => r.owner === 'CONSUMER').length,
    'ram:thirdPartyResourceCount': m.resources.filter((r) => r.owner !== 'CONSUMER').length,
    'ram:actsAsEndUser': m.accesses.some((x) => x.asUser),
    ...(scopes.length > 0 ? { 'ram:scopes': sorted(scopes) } : {}),
    ...(required.length > 0 ? { 'ram:requiredScopes': sorted(required) } : {}),
    trustManifest: signed
      ? {
          identity: `did:web:${DOMAIN}`,
          identityType: 'did',
          issuedAt: UPDATED_AT,
          subject: { identifier, type: 'application/a2a-agent-card+json', version: m.version, digest },
          trustSchema: TRUST_PROFILE,
          signature: `${protectedHeader({ alg: 'ES256', kid: KID })}..${SIGNATURE}`,
        }
      : { identity: `did:web:${DOMAIN}`, identityType: 'did', trustSchema: TRUST_PROFILE },
    ...(signed ? {} : { metadata: { signedManifest: `${ORIGIN}/.well-known/ard.json` } }),
  };
}

/** The `<script type="application/ld+json">` text of the agent's entry, as its pages embed it. */
export function jsonLdOf(m: FloorModel): string {
  const entry = entryOf(m, true);
  const doc = {
    ...entry,
    '@context': ['https://agenticresourcediscovery.org/context/v1', entry['@context']],
  };
  return JSON.stringify(doc, null, 2).replace(/</g, '\\u003c');
}
