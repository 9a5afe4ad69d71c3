/**
 * The checks a verification makes once per site (./site.ts): published keys without private members
 * (jwks.json and did.json), the DID document being the site's own, jwks.json agreeing with did.json
 * (./key-sets.ts), the byte order marks of the key documents, the A2A well-known card copies
 * (./well-known-cards.ts) and the ai-catalog.json compatibility copy (./ai-catalog-check.ts).
 */
import { domainFromDidWeb, PRIVATE_JWK_MEMBERS } from '../trust/did.js';
import { checkAiCatalog } from './ai-catalog-check.js';
import { bomMessage, type DocumentCache, isRecord } from './documents.js';
import type { Findings } from './findings.js';
import { checkKeySets } from './key-sets.js';
import type { SiteReader } from './reader.js';
import { checkWellKnownCards } from './well-known-cards.js';

/** Every JWK in a published document: `keys[]` of a JWK Set, every `publicKeyJwk` of a DID document. */
function publishedJwks(
  doc: unknown,
  where: string,
  out: Array<[string, Record<string, unknown>]> = [],
): Array<[string, Record<string, unknown>]> {
  if (Array.isArray(doc)) doc.forEach((v, i) => publishedJwks(v, `${where}[${i}]`, out));
  else if (isRecord(doc)) {
    for (const [key, value] of Object.entries(doc)) {
      if (key === 'publicKeyJwk' && isRecord(value)) out.push([`${where}.${key}`, value]);
      else if (key === 'keys' && where === '' && Array.isArray(value)) {
        value.forEach((k, i) => isRecord(k) && out.push([`keys[${i}]`, k]));
      } else publishedJwks(value, where === '' ? key : `${where}.${key}`, out);
    }
  }
  return out;
}

/** Which of the checks of {@link siteFileChecks} a verification makes, and the manifest's URL. */
export interface SiteFileChecks {
  wellKnownCards: boolean;
  aiCatalog: boolean;
  manifestUrl: string;
}

/**
 * The site-wide checks of files no entry reads, as `which` asks: the A2A well-known card copies
 * (./well-known-cards.ts) and the ai-catalog.json compatibility copy (./ai-catalog-check.ts), against
 * the manifest's `entries`. Records into `f`.
 */
export async function siteFileChecks(
  reader: SiteReader,
  origin: string,
  siteDomain: string,
  entries: readonly unknown[],
  which: SiteFileChecks,
  f: Findings,
): Promise<void> {
  if (which.wellKnownCards) await checkWellKnownCards(reader, origin, siteDomain, entries, f);
  if (which.aiCatalog) await checkAiCatalog(reader, origin, which.manifestUrl, entries, f);
}

/**
 * The checks made once per site, after the entries: published keys carry no private members, the DID
 * document is the site's own, jwks.json agrees with it, the byte order marks of the documents read
 * through `cache`, then `files` (the checks of {@link siteFileChecks}, or their findings when they were
 * made before the entries).
 */
export async function siteWideChecks(
  cache: DocumentCache,
  origin: string,
  siteDomain: string,
  f: Findings,
  files: (into: Findings) => Promise<void>,
): Promise<void> {
  // Published keys carry no private members (each JWK of jwks.json and did.json, read once per run).
  for (const [url, what] of [
    [`${origin}/.well-known/jwks.json`, 'the JWK Set'],
    [`${origin}/.well-known/did.json`, `the DID document of did:web:${siteDomain}`],
  ] as const) {
    let doc: unknown;
    try {
      doc = await cache.json(url, what);
    } catch {
      continue; // a missing or broken did.json/jwks.json surfaces through the signature checks above
    }
    const exposed = publishedJwks(doc, '')
      .map(([where, jwk]) => [where, PRIVATE_JWK_MEMBERS.filter((m) => m in jwk)] as const)
      .filter(([, members]) => members.length > 0);
    if (exposed.length === 0) f.pass();
    else {
      // Names the members, never their values.
      const list = exposed.map(
        ([where, members]) => `${where} has ${members.map((m) => `"${m}"`).join(', ')}`,
      );
      f.fail(url, 'KEY_PRIVATE_PUBLISHED', `${url} publishes private key material: ${list.join('; ')}`);
    }
  }
  await checkOwnDidDocument(origin, cache, f);
  await checkKeySets(origin, cache, f);
  for (const url of cache.withBom) f.warn(url, 'JSON_BOM', bomMessage(url));
  await files(f);
}

/**
 * The DID document the site serves at `<origin>/.well-known/did.json`, when there is one, must be its own
 * DID's: did:web resolution (did:web method spec §3.2) accepts only a document whose `id` is the DID
 * resolved, `did:web:<host>` (`%3A<port>` after it for an origin with a port). Another id means the
 * document is another site's, or the origin given is not the site's (a folder's `--origin`, a URL given
 * instead of `--resolve`); the message names the origin the document is for. A missing or unreadable
 * did.json is left to the signature checks, which report it where a signature needs it.
 */
async function checkOwnDidDocument(origin: string, cache: DocumentCache, f: Findings): Promise<void> {
  const { hostname, port } = new URL(origin);
  const expected = `did:web:${hostname}${port ? `%3A${port}` : ''}`;
  const url = `${origin}/.well-known/did.json`;
  let doc: unknown;
  try {
    doc = await cache.json(url, `the DID document of ${expected}`);
  } catch {
    return;
  }
  const id = isRecord(doc) ? doc.id : undefined;
  if (id === expected) {
    f.pass();
    return;
  }
  let hint = '';
  try {
    const domain = domainFromDidWeb(String(id));
    hint = `; this is the site of ${domain}: for a folder of it give --origin https://${domain}, for a server of it verify https://${domain}/ with --resolve ${domain}=<server URL>`;
  } catch {
    // not a did:web DID: no origin to suggest
  }
  f.fail(
    url,
    'DID_RESOLUTION_FAILED',
    `the DID document at ${url} is ${typeof id === 'string' ? id : 'without an id'}, not ${expected} (did:web resolves only a document of the DID itself)${hint}`,
  );
}
