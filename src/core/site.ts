/**
 * The one function that computes every machine-readable artifact of a build (DESIGN.md §7: paths →
 * bytes): agent cards, the ARD manifest with signed trustManifests and its ai-catalog.json compatibility
 * copy (src/core/ai-catalog.ts), did.json and jwks.json, and the site files (robots.txt, llms.txt,
 * sitemap.xml, _headers, .nojekyll: src/core/site-files.ts). Pages and
 * the file writer read from its result, so a digest and the bytes it pins always come from the same
 * serialisation. Order of work per agent: DESIGN.md §4 steps 1–6.
 */
import { legacyAgentJsonOn } from './legacy-card.js';
import { readFile } from 'node:fs/promises';
import { aiCatalogDocument, AI_CATALOG_MEDIA_TYPE } from './ai-catalog.js';
import { outsideMessage, placeInJail } from './project-jail.js';
import { withoutUndefined } from './json.js';
import { buildAgentCard, serializeJsonDocument, type JsonObject } from './card.js';
import { sealAgentCard } from './trust/card-signature.js';
import type { AgentModel, ContentModel, OtherEntryModel } from './content/model.js';
import { representativeQueries } from './content/checks.js';
import { buildDidDocument, buildJwks, didWebFromDomain } from './trust/did.js';
import { sha256Digest } from './trust/digest.js';
import { ArdsiteError } from './errors.js';
import { permissionFootprint, ramFootprint, ramNamespace, RAM_PREFIX } from './footprint.js';
import { PERMISSIONS_FILE_NAME, type CardPermissions } from './permissions/model.js';
import { agentPermissions } from './permissions/sets.js';
import { isoSeconds, lastModified } from './git-time.js';
import { agentChanges, changesDocument, changesPath } from './releases/agent-changes.js';
import { changesFootprint } from './footprint.js';
import { canonicalBytes } from './trust/jcs.js';
import { mapLimit } from './concurrency.js';
import type { JwsSigner, SigningKey } from './trust/keys.js';
import type { PublishedJwk } from './trust/jwk.js';
import type { AttestationInputType } from './schema/agent.js';
import { registryServiceDocument } from './registry/service-document.js';
import { siteFileArtifacts } from './site-files.js';
import type {
  AgentBuild,
  ArdEntry,
  Artifact,
  OtherEntryBuild,
  SiteBuild,
  StreamedArtifact,
} from './site-build.js';
import type { PhaseTimer } from './timings.js';
import { signTrustManifest, type SealedAttestation } from './trust/trust-manifest.js';

export {
  A2A_CARD_TYPE,
  AI_CATALOG_PATH,
  ARD_MEDIA_TYPE,
  DID_PATH,
  JWKS_PATH,
  LEGACY_WELL_KNOWN_CARD_PATH,
  MANIFEST_PATH,
  REGISTRY_TYPE,
  WELL_KNOWN_CARD_PATH,
} from './well-known.js';
import {
  A2A_CARD_TYPE,
  AI_CATALOG_PATH,
  ARD_MEDIA_TYPE,
  DID_PATH,
  JWKS_PATH,
  LEGACY_WELL_KNOWN_CARD_PATH,
  MANIFEST_PATH,
  REGISTRY_TYPE,
  WELL_KNOWN_CARD_PATH,
} from './well-known.js';

/** Inputs of {@link computeSite}. */
export interface ComputeSiteOptions {
  key: SigningKey;
  /** Rotated-out keys still to publish (DESIGN.md §4); the active key is added first. */
  retiredKeys?: readonly PublishedJwk[];
  /** SOURCE_DATE_EPOCH, or the build time: `issuedAt` and the `updatedAt` fallback. */
  buildTime: Date;
  /** Last commit time per project-relative file (see `gitLastCommitTimes`). */
  gitTimes: ReadonlyMap<string, number>;
  /**
   * What signs (default `key` itself, in this thread): a pool of worker threads holding `key`
   * (src/core/trust/signer-pool.ts) for many agents. The same bytes either way.
   */
  signer?: JwsSigner;
  /** Receives the time spent signing (in this thread) and deriving permissions, when given. */
  timer?: PhaseTimer;
  /**
   * Hears each agent's build as soon as it is complete (its card signed, its entry and trustManifest
   * made), in no set order, before the rest of the site is: scripts/build.ts renders that agent's pages
   * meanwhile.
   */
  onAgent?: (build: AgentBuild) => void;
  /**
   * Takes each agent's card and permission file as soon as they are computed (scripts/build.ts writes
   * them), so that the site does not hold their bytes (at 10,000 agents over 300 MB) until the end: they
   * are then listed in `SiteBuild.streamed`, not in `artifacts`. Awaited before the agent counts as
   * built; what it throws fails the computation. The primary agent's card is still copied to the
   * well-known paths.
   */
  sink?: (artifacts: Artifact[]) => Promise<void>;
}

/** Agents built at once: enough to keep a signer pool's workers busy, few enough to bound the heap. */
const AGENTS_IN_FLIGHT = 64;

function absoluteUrl(siteUrl: string, sitePath: string): string {
  return new URL(sitePath.replace(/^\//, ''), siteUrl).toString();
}

function nonEmpty<T>(list: readonly T[] | undefined): T[] | undefined {
  return list && list.length > 0 ? [...list] : undefined;
}

/** Drops undefined members, keeping order. */
const defined = (value: Record<string, unknown>): JsonObject => withoutUndefined(value) as JsonObject;

/**
 * Reads a file the content names (an attestation file, an entry's file under public/), only when it
 * resolves inside the project or an `allowOutside` folder (DESIGN.md §9; `npm run check` reports the
 * same faults with their line first).
 * @throws ArdsiteError `FILE_OUTSIDE_PROJECT`, `FILE_UNREADABLE` (naming `what` and the file system's code).
 */
async function readNamedFile(model: ContentModel, file: string, what: string): Promise<Buffer> {
  const place = placeInJail(file, { root: model.root, allowOutside: model.publisher.allowOutside });
  if (place.state === 'outside') {
    throw new ArdsiteError('FILE_OUTSIDE_PROJECT', `${what}: ${outsideMessage(file, place.real)}`);
  }
  try {
    if (place.state === 'missing') throw Object.assign(new Error(), { code: 'ENOENT' });
    return await readFile(place.real);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new ArdsiteError('FILE_UNREADABLE', `${what} ${file} cannot be read (${code})`);
  }
}

async function sealAttestations(
  model: ContentModel,
  inputs: readonly AttestationInputType[] | undefined,
): Promise<SealedAttestation[] | undefined> {
  if (!inputs || inputs.length === 0) return undefined;
  const out: SealedAttestation[] = [];
  for (const a of inputs) {
    let digest = a.digest;
    if (a.file) digest = sha256Digest(await readNamedFile(model, a.file, 'attestation file'));
    out.push(
      defined({ type: a.type, uri: a.uri, mediaType: a.mediaType, digest }) as unknown as SealedAttestation,
    );
  }
  return out;
}

function expiresAt(issued: Date, days: number | undefined): string | undefined {
  return days === undefined ? undefined : isoSeconds(new Date(issued.getTime() + days * 86_400_000));
}

/** One agent as {@link buildAgent} made it: its build and the bytes of its files (until a sink took them). */
interface BuiltAgent {
  build: AgentBuild;
  cardBytes?: Uint8Array | undefined;
  permissionsBytes?: Uint8Array | undefined;
  changesBytes?: Uint8Array | undefined;
}

/** The card and the permission file of a built agent, while its bytes are held. */
function agentArtifacts({ build, cardBytes, permissionsBytes }: BuiltAgent): Artifact[] {
  const files: Artifact[] = [];
  if (cardBytes)
    files.push({
      path: build.cardPath,
      bytes: cardBytes,
      mediaType: 'application/json',
      digest: build.digest,
    });
  if (build.permissionsPath && permissionsBytes)
    files.push({ path: build.permissionsPath, bytes: permissionsBytes, mediaType: 'application/json' });
  return files;
}

async function buildAgent(
  agent: AgentModel,
  model: ContentModel,
  did: string,
  signer: JwsSigner,
  options: ComputeSiteOptions,
): Promise<BuiltAgent> {
  const { publisher } = model;
  const timer = options.timer;
  const timed = <T>(phase: string, fn: () => T): T => (timer ? timer.time(phase, fn) : fn());
  // The permission file first: the card pins it by digest (DESIGN.md §9).
  const permissions = model.permissions
    ? timed('permissions', () => agentPermissions(agent, model.permissions!))
    : undefined;
  let cardPermissions: CardPermissions | undefined;
  let permissionsBytes: Uint8Array | undefined;
  const permissionsPath = `/agents/${agent.slug}/${PERMISSIONS_FILE_NAME}`;
  if (permissions) {
    permissionsBytes = serializeJsonDocument(permissions);
    cardPermissions = withoutUndefined({
      permissionSet: permissions.permissionSet,
      skillPermissionSets: permissions.skillPermissionSets,
      file: absoluteUrl(publisher.siteUrl, permissionsPath),
      digest: sha256Digest(permissionsBytes),
    }) as CardPermissions;
  }
  const front = agent.front;
  const updatedAt =
    front.updatedAt ?? isoSeconds(lastModified(agent.files, options.gitTimes, options.buildTime));
  // The release history (DESIGN.md §9): its changes document is pinned by digest in the card.
  const history = model.releases?.get(agent.slug);
  const changes = history
    ? agentChanges(agent, model, history, {
        updatedAt,
        now: options.buildTime,
        noticeDays: publisher.releases.noticeDays,
        ...(permissions ? { permissions } : {}),
      })
    : undefined;
  const changesBytes = changes
    ? serializeJsonDocument(changesDocument(agent.identifier, changes) as JsonObject)
    : undefined;
  const changesLink = changesBytes
    ? { url: absoluteUrl(publisher.siteUrl, changesPath(agent.slug)), digest: sha256Digest(changesBytes) }
    : undefined;
  // Steps 1–3: card without signatures, A2A signature, one serialisation.
  const unsigned = buildAgentCard(agent, model, {
    did,
    ...(cardPermissions ? { permissions: cardPermissions } : {}),
    ...(changesLink ? { changes: changesLink } : {}),
  });
  // Steps 2–4 at once: signed, serialised, digest of the exact bytes served (in a worker thread when
  // `signer` is a pool: ./trust/card-signature.ts `sealAgentCard`).
  const { bytes: cardBytes, digest } = await sealAgentCard(unsigned, signer, publisher.domain);
  const cardPath = `/agents/${agent.slug}/agent-card.json`;
  const cardUrl = absoluteUrl(publisher.siteUrl, cardPath);
  // Step 5: the signed trustManifest over the entry's coordinates.
  const attestations = await sealAttestations(model, front.attestations);
  const trustManifest = await signTrustManifest(
    {
      did,
      subject: { identifier: agent.identifier, type: A2A_CARD_TYPE, version: front.version, digest },
      issuedAt: isoSeconds(options.buildTime),
      expiresAt: expiresAt(options.buildTime, publisher.signing.expiresInDays),
      attestations,
    },
    signer,
  );
  const tags = front.discovery?.tags ?? [...new Set(front.skills.flatMap((s) => s.tags))];
  const entry = defined({
    '@context': { [RAM_PREFIX]: ramNamespace(publisher.ram.extensionUri) },
    identifier: agent.identifier,
    displayName: front.name,
    type: A2A_CARD_TYPE,
    url: cardUrl,
    version: front.version,
    description: front.description,
    tags: nonEmpty(tags),
    capabilities: nonEmpty(front.discovery?.capabilities ?? front.skills.map((s) => s.name)),
    representativeQueries: nonEmpty(representativeQueries(agent)),
    updatedAt,
    digest,
    metadata: front.discovery?.metadata,
    ...ramFootprint(agent.ram),
    ...permissionFootprint(cardPermissions),
    ...(changes ? changesFootprint(changes) : {}),
    trustManifest,
  });
  const provider = unsigned.provider as AgentBuild['provider'];
  const build: AgentBuild = { agent, provider, digest, cardPath, cardUrl, entry, trustManifest };
  if (changes) build.changes = changes;
  if (permissions && permissionsBytes) {
    build.permissions = permissions;
    build.permissionsPath = permissionsPath;
  }
  return {
    build,
    cardBytes,
    ...(permissionsBytes && permissions ? { permissionsBytes } : {}),
    ...(changesBytes ? { changesBytes } : {}),
  };
}

async function buildOtherEntry(
  e: OtherEntryModel,
  model: ContentModel,
  did: string,
  signer: JwsSigner,
  options: ComputeSiteOptions,
): Promise<OtherEntryBuild> {
  const { entry: input } = e;
  const { attestations: _a, trustManifest, trustManifests, ...listed } = input;
  if (!e.own) {
    // Another domain's entry: listed as written, with its publisher's own manifests (DESIGN.md §1).
    return { model: e, entry: defined({ ...listed, trustManifest, trustManifests }) };
  }
  let url = input.url;
  let digest = input.digest;
  if (url?.startsWith('/') && e.publicFile) {
    const bytes = await readNamedFile(model, e.publicFile, `the file of url "${url}"`);
    digest = sha256Digest(bytes);
    url = absoluteUrl(model.publisher.siteUrl, url);
  } else if (input.data) {
    // ardsite profile choice: an inline artifact's digest is sha256 over its RFC 8785 JCS.
    digest = sha256Digest(canonicalBytes(input.data));
  }
  const updatedAt =
    input.updatedAt ??
    isoSeconds(
      lastModified([e.file, ...(e.publicFile ? [e.publicFile] : [])], options.gitTimes, options.buildTime),
    );
  const subject = defined({ identifier: input.identifier, type: input.type, version: input.version, digest });
  const signed = await signTrustManifest(
    {
      did,
      subject: subject as never,
      issuedAt: isoSeconds(options.buildTime),
      expiresAt: expiresAt(options.buildTime, model.publisher.signing.expiresInDays),
      attestations: await sealAttestations(model, input.attestations),
    },
    signer,
  );
  const entry = defined({
    identifier: input.identifier,
    displayName: input.displayName,
    type: input.type,
    url,
    data: input.data,
    version: input.version,
    description: input.description,
    tags: input.tags,
    capabilities: input.capabilities,
    representativeQueries: input.representativeQueries,
    updatedAt,
    digest,
    metadata: input.metadata,
    trustManifest: signed,
  });
  return { model: e, entry };
}

/** The identifier of the site's own registry entry: `urn:air:<domain>:<namespace>:<registry.name>`. */
export function registryIdentifier(publisher: ContentModel['publisher']): string {
  return `urn:air:${publisher.domain}:${publisher.namespace}:${publisher.registry.name}`;
}

/** The base URI of the site's lookup API: `https://<domain><registry.basePath>` (ARD draft §4.2). */
export function registryBaseUri(publisher: ContentModel['publisher']): string {
  return `https://${publisher.domain}${publisher.registry.basePath}`;
}

/**
 * The registry entry of registry mode (ARD draft §3.6: "a single application/ai-registry+json entry whose
 * url advertises the Base URI of its dynamic Agent Registry"), an own entry signed like the others, and
 * the service description its url answers with (src/core/registry/service-document.ts): the entry and
 * its subject pin that document's bytes by `digest` (ARD draft §3.5.2). No version: the url names a
 * service. `updatedAt` follows publisher.yaml, where the registry is configured.
 * @throws ArdsiteError `ARD_DUPLICATE_ENTRY` when an agent or entry already uses the registry's URN.
 */
async function buildRegistryEntry(
  model: ContentModel,
  did: string,
  taken: ReadonlySet<string>,
  signer: JwsSigner,
  options: ComputeSiteOptions,
): Promise<{ entry: ArdEntry; document: Uint8Array }> {
  const { publisher } = model;
  const identifier = registryIdentifier(publisher);
  if (taken.has(identifier)) {
    throw new ArdsiteError(
      'ARD_DUPLICATE_ENTRY',
      `the registry entry's identifier ${identifier} is already used by an agent or entry; set registry.name in content/publisher.yaml to another name`,
    );
  }
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
  // The same entries in the ARD v0.9 (ai-catalog) shape, for older consumers (src/core/ai-catalog.ts).
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
