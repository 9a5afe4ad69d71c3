/**
 * The site's own registry entry in registry mode (ARD draft §3.6, §4.2): its identifier, the base URI of
 * the lookup API, and the signed `application/ai-registry+json` entry that pins the service description
 * (src/core/registry/service-document.ts).
 */
import { serializeJsonDocument } from '../a2a/card.js';
import type { ContentModel } from '../model/content.js';
import { ArdsiteError } from '../util/errors.js';
import { isoSeconds, lastModified } from '../project/git-time.js';
import { registryServiceDocument } from '../registry/service-document.js';
import type { ArdEntry } from './site-build.js';
import { defined, expiresAt } from './site-entry-fields.js';
import type { ComputeSiteOptions } from './site-options.js';
import { sha256Digest } from '../ard/digest.js';
import type { JwsSigner } from '../trust/keys.js';
import { signTrustManifest } from '../trust/trust-manifest.js';
import { REGISTRY_TYPE } from '../ard/well-known.js';

/** The identifier of the site's own registry entry: `urn:air:<domain>:<namespace>:<registry.name>`. */
export function registryIdentifier(publisher: ContentModel['publisher']): string {
  return `urn:air:${publisher.domain}:${publisher.namespace}:${publisher.registry.name}`;
}

/** The base URI of the site's lookup API: `https://<domain><registry.basePath>` (ARD draft §4.2). */
export function registryBaseUri(publisher: ContentModel['publisher']): string {
  return `https://${publisher.domain}${publisher.registry.basePath}`;
}

/**
 * Refuses a registry whose URN ({@link registryIdentifier}) an agent or an entry of `content/` already
 * has (ARD draft §3.4: one identifier, one entry). A build checks it before computing and rendering, from
 * the model alone: an agent's identifier and an entry's are in the model as they are listed.
 * @param taken the identifiers of the agents and entries of the manifest.
 * @throws ArdsiteError `ARD_DUPLICATE_ENTRY` naming the URN and `registry.name`.
 */
export function assertRegistryIdentifierFree(
  publisher: ContentModel['publisher'],
  taken: Iterable<string>,
): void {
  const identifier = registryIdentifier(publisher);
  if (new Set(taken).has(identifier)) {
    throw new ArdsiteError(
      'ARD_DUPLICATE_ENTRY',
      `the registry entry's identifier ${identifier} is already used by an agent or entry; set registry.name in content/publisher.yaml to another name`,
    );
  }
}

/**
 * The identifiers a registry's URN may not take: those of the model's agents and entries, as the
 * manifest lists them.
 */
export function modelIdentifiers(model: ContentModel): string[] {
  return [...model.agents.map((a) => a.identifier), ...model.entries.map((e) => String(e.entry.identifier))];
}

/**
 * The registry entry of registry mode (ARD draft §3.6: "a single application/ai-registry+json entry whose
 * url advertises the Base URI of its dynamic Agent Registry"), an own entry signed like the others, and
 * the service description its url answers with (src/core/registry/service-document.ts): the entry and
 * its subject pin that document's bytes by `digest` (ARD draft §3.5.2). No version: the url names a
 * service. `updatedAt` follows publisher.yaml, where the registry is configured.
 * @throws ArdsiteError `ARD_DUPLICATE_ENTRY` when an agent or entry already uses the registry's URN.
 */
export async function buildRegistryEntry(
  model: ContentModel,
  did: string,
  taken: ReadonlySet<string>,
  signer: JwsSigner,
  options: ComputeSiteOptions,
): Promise<{ entry: ArdEntry; document: Uint8Array }> {
  const { publisher } = model;
  assertRegistryIdentifierFree(publisher, taken);
  const identifier = registryIdentifier(publisher);
  const organization = publisher.organization;
  const displayName = publisher.registry.displayName ?? `${organization} agent registry`;
  const description =
    publisher.registry.description ??
    `Search, explore and list the agents and entries ${organization} publishes (ARD lookup API).`;
  const document = serializeJsonDocument(
    registryServiceDocument({
      identifier,
      displayName,
      description,
      baseUri: registryBaseUri(publisher),
      publisher: did,
      settings: publisher.registry,
    }),
  );
  const digest = sha256Digest(document);
  const trustManifest = await signTrustManifest(
    {
      did,
      subject: { identifier, type: REGISTRY_TYPE, digest },
      issuedAt: isoSeconds(options.buildTime),
      expiresAt: expiresAt(options.buildTime, publisher.signing.expiresInDays),
    },
    signer,
  );
  const entry = defined({
    identifier,
    displayName,
    type: REGISTRY_TYPE,
    url: registryBaseUri(publisher),
    digest,
    description,
    tags: ['registry'],
    capabilities: ['search', 'explore', 'agents'],
    representativeQueries: [
      `find an agent of ${organization}`,
      `which agents of ${organization} never act as me`,
    ],
    updatedAt: isoSeconds(lastModified(['content/publisher.yaml'], options.gitTimes, options.buildTime)),
    trustManifest,
  });
  return { entry, document };
}
