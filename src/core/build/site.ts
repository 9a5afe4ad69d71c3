/**
 * The one function that computes every machine-readable artifact of a build (DESIGN.md §7: paths →
 * bytes): agent cards, the ARD manifest with signed trustManifests and its ai-catalog.json compatibility
 * copy (src/core/ard/ai-catalog.ts), did.json and jwks.json, and the site files (robots.txt, llms.txt,
 * sitemap.xml, _headers, .nojekyll: src/core/build/site-files.ts). Pages and
 * the file writer read from its result, so a digest and the bytes it pins always come from the same
 * serialisation. Order of work per agent: DESIGN.md §4 steps 1–6.
 *
 * Here the agents are built a few at a time and the site is put together; each part has its own module:
 * an agent's card, files and entry (site-agent.ts), the other entries (site-other-entry.ts), the
 * registry entry (site-registry-entry.ts), what they share (site-entry-fields.ts), and the options
 * (site-options.ts).
 */
import { legacyAgentJsonOn } from '../a2a/legacy-card.js';
import { aiCatalogDocument, AI_CATALOG_MEDIA_TYPE } from '../ard/ai-catalog.js';
import { serializeJsonDocument } from '../a2a/card.js';
import type { ContentModel } from '../model/content.js';
import { buildDidDocument, buildJwks, didWebFromDomain } from '../trust/did.js';
import { isoSeconds } from '../project/git-time.js';
import { changesPath } from '../releases/agent-changes.js';
import { mapLimit } from '../util/concurrency.js';
import type { JwsSigner } from '../trust/keys.js';
import { siteFileArtifacts } from './site-files.js';
import { agentArtifacts, buildAgent } from '../site/site-agent.js';
import { absoluteUrl } from '../site/site-entry-fields.js';
import type { ComputeSiteOptions } from '../site/site-options.js';
import { buildOtherEntry } from '../site/site-other-entry.js';
import { buildRegistryEntry } from '../site/site-registry-entry.js';
import type { ArdEntry, Artifact, OtherEntryBuild, SiteBuild, StreamedArtifact } from '../site/site-build.js';

import {
  AI_CATALOG_PATH,
  ARD_MEDIA_TYPE,
  DID_PATH,
  JWKS_PATH,
  LEGACY_WELL_KNOWN_CARD_PATH,
  MANIFEST_PATH,
  REGISTRY_TYPE,
  WELL_KNOWN_CARD_PATH,
} from '../ard/well-known.js';

/** Agents built at once: enough to keep a signer pool's workers busy, few enough to bound the heap. */
const AGENTS_IN_FLIGHT = 64;

/** Sort key of entries: identifier, then version (ARD draft §3.4: (identifier, version) is unique). */
function compareEntries(a: ArdEntry, b: ArdEntry): number {
  const ka = `${String(a.identifier)}\u0000${String(a.version ?? '')}`;
  const kb = `${String(b.identifier)}\u0000${String(b.version ?? '')}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * Computes every machine-readable artifact of the site from a checked model (DESIGN.md §2–§4).
 * Deterministic: the same model, key, times and files give the same bytes.
 * @throws ArdsiteError on a builder invariant (`SCHEMA_EMPTY`), an unreadable attestation or public file
 *   (`FILE_UNREADABLE`), or a signer error.
 */
export async function computeSite(model: ContentModel, options: ComputeSiteOptions): Promise<SiteBuild> {
  const { publisher } = model;
  const did = didWebFromDomain(publisher.domain);
  const { key, timer } = options;
  // Every signature of the site goes through `signer`. In this thread, signing is timed per signature;
  // a pool reports its workers' time itself.
  const signer: JwsSigner =
    options.signer ??
    (timer
      ? {
          alg: key.alg,
          kid: key.kid,
          sign: (input: Uint8Array) => timer.time('signing', () => key.sign(input)),
        }
      : key);
  const streamed = new Map<string, StreamedArtifact>();
  // The well-known card's agent: primaryAgent's, else the only agent's.
  const primarySlug = model.agents.some((a) => a.slug === publisher.primaryAgent)
    ? publisher.primaryAgent
    : model.agents.length === 1
      ? model.agents[0]!.slug
      : undefined;
  let primaryCard: Uint8Array | undefined;
  const built = await mapLimit(model.agents, AGENTS_IN_FLIGHT, async (agent) => {
    const done = await buildAgent(agent, model, did, signer, options);
    if (agent.slug === primarySlug) primaryCard = done.cardBytes;
    if (options.sink) {
      const files = agentArtifacts(done);
      await options.sink(files);
      for (const { path: p, mediaType } of files) streamed.set(p, { path: p, mediaType });
      done.cardBytes = undefined;
      done.permissionsBytes = undefined;
    }
    options.onAgent?.(done.build);
    return done;
  });
  const agents = built.map((b) => b.build);
  const otherEntries: OtherEntryBuild[] = [];
  for (const e of model.entries) otherEntries.push(await buildOtherEntry(e, model, did, signer, options));
  const listed = [...agents.map((a) => a.entry), ...otherEntries.map((o) => o.entry)];
  const registry = publisher.registry.enabled
    ? await buildRegistryEntry(model, did, new Set(listed.map((e) => String(e.identifier))), signer, options)
    : undefined;
  const registryEntry = registry?.entry;

  const entries = [...listed, ...(registryEntry ? [registryEntry] : [])].sort(compareEntries);
  const artifacts = new Map<string, Artifact>();
  const add = (p: string, bytes: Uint8Array, mediaType: string, digest?: string) =>
    artifacts.set(p, { path: p, bytes, mediaType, ...(digest ? { digest } : {}) });

  add(MANIFEST_PATH, serializeJsonDocument({ entries }), ARD_MEDIA_TYPE);
  // The same entries in the ARD v0.9 (ai-catalog) shape, for older consumers (src/core/ard/ai-catalog.ts).
  const catalog = aiCatalogDocument(
    entries,
    { displayName: publisher.organization, identifier: did, documentationUrl: publisher.siteUrl },
    absoluteUrl(publisher.siteUrl, MANIFEST_PATH),
  );
  add(AI_CATALOG_PATH, serializeJsonDocument(catalog), AI_CATALOG_MEDIA_TYPE);
  // The registry entry's url, on the static site: the service description it pins.
  if (registry) add(publisher.registry.basePath, registry.document, REGISTRY_TYPE);
  for (const done of built) {
    for (const a of agentArtifacts(done)) artifacts.set(a.path, a);
    if (done.changesBytes) add(changesPath(done.build.agent.slug), done.changesBytes, 'application/json');
  }
  if (primaryCard) {
    add(WELL_KNOWN_CARD_PATH, primaryCard, 'application/json');
    if (legacyAgentJsonOn(model)) add(LEGACY_WELL_KNOWN_CARD_PATH, primaryCard, 'application/json');
  }
  const publishedKeys = [
    options.key.publicJwk,
    ...(options.retiredKeys ?? []).filter((k) => k.kid !== options.key.kid),
  ];
  add(
    DID_PATH,
    serializeJsonDocument(buildDidDocument(publisher.domain, publishedKeys)),
    'application/did+json',
  );
  add(JWKS_PATH, serializeJsonDocument(buildJwks(publishedKeys)), 'application/jwk-set+json');
  // robots.txt, llms.txt, sitemap.xml, _headers, .nojekyll: computed last, as _headers lists the JSON
  // files above.
  const siteFiles = siteFileArtifacts({
    publisher,
    agents,
    otherEntries,
    artifacts: new Map([...streamed, ...artifacts]),
    model,
    did,
    ...(registryEntry ? { registryEntry } : {}),
  });
  for (const file of siteFiles) {
    add(file.path, file.bytes, file.mediaType);
  }

  return {
    model,
    did,
    kid: options.key.kid,
    alg: options.key.alg,
    agents,
    otherEntries,
    ...(registryEntry ? { registryEntry } : {}),
    entries,
    artifacts,
    streamed,
    builtAt: isoSeconds(options.buildTime),
  };
}
