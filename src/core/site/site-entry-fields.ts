/**
 * What every entry the site signs is made with (src/core/build/site.ts, DESIGN.md §2 and §4): absolute URLs on
 * the site, lists and members left out when empty, files the content names read inside the project
 * (DESIGN.md §9), attestations sealed with their file's digest and the trustManifest's `expiresAt`
 * (ARD draft §3.5).
 */
import { readFile } from 'node:fs/promises';
import type { JsonObject } from '../a2a/card.js';
import type { ContentModel } from '../model/content.js';
import { ArdsiteError } from '../util/errors.js';
import { isoSeconds } from '../project/git-time.js';
import { withoutUndefined } from '../util/json.js';
import { outsideMessage, placeInJail } from '../project/project-jail.js';
import type { AttestationInputType } from '../schema/attestation.js';
import { sha256Digest } from '../ard/digest.js';
import type { SealedAttestation } from '../trust/trust-manifest.js';

/** The absolute URL of `sitePath` (a URL path with its leading `/`) on the site at `siteUrl`. */
export function absoluteUrl(siteUrl: string, sitePath: string): string {
  return new URL(sitePath.replace(/^\//, ''), siteUrl).toString();
}

/** A copy of `list`, or undefined when it is missing or empty (ARD entries never carry `[]`). */
export function nonEmpty<T>(list: readonly T[] | undefined): T[] | undefined {
  return list && list.length > 0 ? [...list] : undefined;
}

/** Drops undefined members, keeping order. */
export const defined = (value: Record<string, unknown>): JsonObject => withoutUndefined(value) as JsonObject;

/**
 * Reads a file the content names (an attestation file, an entry's file under public/), only when it
 * resolves inside the project or a folder the operator allows (`model.jail`, DESIGN.md §9, §10; `npm run check` reports the
 * same faults with their line first).
 * @throws ArdsiteError `FILE_OUTSIDE_PROJECT`, `FILE_UNREADABLE` (naming `what` and the file system's code).
 */
export async function readNamedFile(model: ContentModel, file: string, what: string): Promise<Buffer> {
  const place = placeInJail(file, model.jail);
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

/**
 * The author's attestations as the trustManifest carries them (ARD draft §3.5): each with the digest of
 * its local `file` when it names one; undefined when there are none.
 * @throws ArdsiteError as {@link readNamedFile}.
 */
export async function sealAttestations(
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

/** `expiresAt` of a trustManifest issued at `issued`: `days` later (`signing.expiresInDays`), or none. */
export function expiresAt(issued: Date, days: number | undefined): string | undefined {
  return days === undefined ? undefined : isoSeconds(new Date(issued.getTime() + days * 86_400_000));
}
