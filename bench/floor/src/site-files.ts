/**
 * The benchmark floor's site-wide files, by plain templating of its agents' records: the ARD manifest
 * (`/.well-known/ard.json`, one signed entry per agent, signatures as placeholders), its ai-catalog copy,
 * the did:web DID document and the JSON Web Key Set of a placeholder P-256 key (RFC 7517 §5), llms.txt
 * (the llms.txt proposal: a Markdown index for language models), the sitemap (sitemaps.org protocol 0.9)
 * and robots.txt (RFC 9309). Each is one string, written by a plain file write
 * after Astro's build (./plain-files.ts).
 */
import { DOMAIN, ORGANIZATION, ORIGIN, type FloorModel } from './agent-model';
import { entryOf, KID, UPDATED_AT } from './agent-files';
import { ENGLISH_WORDS as W } from '../../../src/core/i18n/words';

/** The ARD manifest: every agent's signed entry. */
export function ardText(models: readonly FloorModel[]): string {
  return `${JSON.stringify({ entries: models.map((m) => entryOf(m, true)) }, null, 2)}\n`;
}

/** The ai-catalog copy of the manifest: the same entries, pointing to the signed manifest. */
export function aiCatalogText(models: readonly FloorModel[]): string {
  const catalog = {
    specVersion: '1.0',
    host: { displayName: ORGANIZATION, identifier: `did:web:${DOMAIN}`, documentationUrl: `${ORIGIN}/` },
    entries: models.map((m) => entryOf(m, false)),
  };
  return `${JSON.stringify(catalog, null, 2)}\n`;
}

/** The public key, as a JWK (placeholder coordinates of the right length). */
const JWK = {
  kty: 'EC',
  crv: 'P-256',
  x: 'X'.repeat(43),
  y: 'Y'.repeat(43),
};

/** The DID document of `did:web:<domain>` (W3C DID Core §5) with the key as a JsonWebKey2020. */
export function didText(): string {
  const did = `did:web:${DOMAIN}`;
  const doc = {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
    id: did,
    verificationMethod: [{ id: KID, type: 'JsonWebKey2020', controller: did, publicKeyJwk: JWK }],
    assertionMethod: [KID],
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** The JSON Web Key Set of the key. */
export function jwksText(): string {
  return `${JSON.stringify({ keys: [{ ...JWK, kid: KID, alg: 'ES256', use: 'sig' }] }, null, 2)}\n`;
}

/** One service of an agent in llms.txt: its name, as whom, what it does, whether it asks first. */
function llmsService(m: FloorModel, r: FloorModel['resources'][number]): string {
  const own = m.accesses.filter((x) => x.res === r);
  const asYou = own.some((x) => x.asUser);
  const asItself = own.some((x) => !x.asUser);
  const who =
    asYou && asItself ? 'as you and with its own account' : asYou ? 'as you' : 'with its own account';
  const changes = own.some((x) => x.operation.endsWith('-create')) ? 'may change data' : 'only reads';
  const asks = own.some((x) => x.write) ? 'asks you first for some actions' : 'does not ask first';
  return `Synthetic ${r.word} service ${r.i} (${who}, ${changes}, ${asks})`;
}

/** llms.txt: the publisher, then each agent's page, permission page and card, with a line on what it touches. */
export function llmsText(models: readonly FloorModel[]): string {
  const lines = [
    `# ${ORGANIZATION}`,
    '',
    `> The AI agents of ${ORGANIZATION}: what each one does, and what it may touch on your behalf.`,
    '',
    `${ORGANIZATION} lists ${models.length.toLocaleString('en')} agents here. Each agent has a page, a permission page that says in plain words which of your accounts and which outside services it may touch, as whom, and whether it asks you first, and an A2A agent card that carries its Resource Access Manifest. What an agent may touch is the publisher's own declaration, not an independent audit. The publisher signs its own entries in the ARD manifest with the key of did:web:${DOMAIN}.`,
    '',
  ];
  for (const m of models) {
    const page = `${ORIGIN}/agents/${m.slug}/`;
    const yours = m.resources.filter((r) => r.owner === 'CONSUMER').map((r) => llmsService(m, r));
    const outside = m.resources.filter((r) => r.owner !== 'CONSUMER').map((r) => llmsService(m, r));
    const asks = m.accesses.filter((x) => x.write).length;
    const touches = [
      ...(yours.length > 0 ? [`Your accounts and data: ${yours.join('; ')}.`] : []),
      ...(outside.length > 0 ? [`Outside services: ${outside.join('; ')}.`] : []),
      W.permissions.summaryAsksFirst(asks, m.accesses.length),
      'No action is marked higher risk.',
    ];
    lines.push(
      `## ${m.name}`,
      '',
      `- [${m.name}](${page}): ${m.description} Version ${m.version}.`,
      `- [What ${m.name} may touch](${page}permissions/): ${touches.join(' ')}`,
      `- [Agent card of ${m.name}](${page}agent-card.json): A2A AgentCard (JSON) with its Resource Access Manifest, signed by the publisher.`,
      '',
    );
  }
  lines.push(
    '## Machine-readable files',
    '',
    `- [ARD manifest](${ORIGIN}/.well-known/ard.json): Every agent and entry of this site; the publisher signs its own (application/ard+json, IETF ARD draft).`,
    `- [AI catalog](${ORIGIN}/.well-known/ai-catalog.json): The same entries in the ARD v0.9 (ai-catalog) shape, for older readers. It carries no signatures: they are in the ARD manifest.`,
    `- [DID document](${ORIGIN}/.well-known/did.json): The public keys of did:web:${DOMAIN}, which verify every signature of this site.`,
    `- [Sitemap](${ORIGIN}/sitemap.xml): Every page of this site.`,
    '',
    '## Optional',
    '',
    `- [${ORGANIZATION}](https://www.example.com/): The publisher.`,
    '- [Privacy policy](https://www.example.com/privacy)',
    '',
  );
  return lines.join('\n');
}

/** The sitemap: the index, and each agent's two pages. */
export function sitemapText(models: readonly FloorModel[]): string {
  const url = (loc: string) =>
    `  <url>\n    <loc>${loc}</loc>\n    <lastmod>${UPDATED_AT}</lastmod>\n  </url>`;
  const urls = [
    url(`${ORIGIN}/`),
    ...models.flatMap((m) => [
      url(`${ORIGIN}/agents/${m.slug}/`),
      url(`${ORIGIN}/agents/${m.slug}/permissions/`),
    ]),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** robots.txt: everything allowed, and the sitemap's address. */
export function robotsText(): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${ORIGIN}/sitemap.xml\n`;
}
