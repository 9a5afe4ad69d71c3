/**
 * One agent's part of the site (DESIGN.md §4 steps 1–5): its permission file (DESIGN.md §9), its changes
 * document (releases), its card signed and serialised once, and its ARD entry with the signed
 * trustManifest and the RAM footprint terms. src/core/build/site.ts builds every agent with it.
 */
import { buildAgentCard, serializeJsonDocument, type JsonObject } from '../a2a/card.js';
import { representativeQueries } from '../content/checks.js';
import type { AgentModel, ContentModel } from '../model/content.js';
import {
  changesFootprint,
  permissionFootprint,
  ramFootprint,
  ramNamespace,
  RAM_PREFIX,
} from '../ram/footprint.js';
import { isoSeconds, lastModified } from '../project/git-time.js';
import { withoutUndefined } from '../util/json.js';
import { PERMISSIONS_FILE_NAME, type CardPermissions } from '../model/permissions.js';
import { agentPermissions } from '../ram/sets.js';
import { agentChanges, changesDocument, changesPath } from '../releases/agent-changes.js';
import type { AgentBuild, Artifact } from './site-build.js';
import { absoluteUrl, defined, expiresAt, nonEmpty, sealAttestations } from './site-entry-fields.js';
import type { ComputeSiteOptions } from './site-options.js';
import { sealAgentCard } from '../trust/card-signature.js';
import { sha256Digest } from '../ard/digest.js';
import type { JwsSigner } from '../trust/keys.js';
import { signTrustManifest } from '../trust/trust-manifest.js';
import { A2A_CARD_TYPE } from '../ard/well-known.js';

/** One agent as {@link buildAgent} made it: its build and the bytes of its files (until a sink took them). */
export interface BuiltAgent {
  build: AgentBuild;
  cardBytes?: Uint8Array | undefined;
  permissionsBytes?: Uint8Array | undefined;
  changesBytes?: Uint8Array | undefined;
}

/** The card and the permission file of a built agent, while its bytes are held. */
export function agentArtifacts({ build, cardBytes, permissionsBytes }: BuiltAgent): Artifact[] {
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

/**
 * Builds one agent (DESIGN.md §4 steps 1–5): its permission file first (the card pins it by digest), its
 * changes document, the signed card and its digest, the signed trustManifest, and its ARD entry.
 * @throws ArdsiteError on an unreadable attestation file, or what `signer` throws.
 */
export async function buildAgent(
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
