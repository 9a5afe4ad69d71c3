/**
 * The publisher's other entries (content/entries, DESIGN.md §1) as the manifest lists them: an own entry
 * with its digest (of its file under public/, or the RFC 8785 JCS of its inline `data`) and a signed
 * trustManifest (ARD draft §3.5); another domain's entry as written, never signed by us (ARD draft §3.5.1).
 */
import { canonicalBytes } from '../trust/jcs.js';
import type { ContentModel, OtherEntryModel } from '../model/content.js';
import { isoSeconds, lastModified } from '../project/git-time.js';
import type { OtherEntryBuild } from './site-build.js';
import { absoluteUrl, defined, expiresAt, readNamedFile, sealAttestations } from './site-entry-fields.js';
import type { ComputeSiteOptions } from './site-options.js';
import { sha256Digest } from '../ard/digest.js';
import type { JwsSigner } from '../trust/keys.js';
import { signTrustManifest } from '../trust/trust-manifest.js';

/**
 * The entry of `content/entries/<slug>.yaml` (DESIGN.md §1): an own one signed with its digest, a foreign
 * one listed verbatim with its publisher's own trustManifest(s).
 * @throws ArdsiteError `FILE_OUTSIDE_PROJECT`, `FILE_UNREADABLE` for its file under public/ or an
 *   attestation file, or what `signer` throws.
 */
export async function buildOtherEntry(
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
