/**
 * The trust boundary (DESIGN.md §10; docs/security.md "Trust boundary"). Inputs split in two:
 *
 * - trusted, the operator's: the command line, the environment, the key file it names, settings outside
 *   `content/` that CI owns;
 * - untrusted, what a pull request or an imported card can change: everything under `content/` and
 *   `public/`, stored specs, release files.
 *
 * Nothing untrusted decides key material or reach outside the project. This module is the one place that
 * reads the operator's word on both, from the environment:
 *
 * - `ARDSITE_TRUSTED_KEYS`: the RFC 7638 thumbprints (or full `did:web:…#thumbprint` key ids) of the keys
 *   the operator confirms, separated by spaces or commas. A key named by content (a `signing.retiredKeys`
 *   entry that is not revoked, the key of `signing.keyFile`, a key file git tracks) must be listed, or the
 *   build fails. A revoked key's thumbprint is taken out of it, so that a pull request cannot turn the
 *   revoked entry back into a published one.
 * - `ARDSITE_ALLOW_OUTSIDE`: the folders outside the project that reads may reach, separated by the
 *   system's path-list delimiter (`:` on POSIX, as `PATH`), absolute or relative to the project.
 *   publisher.yaml `allowOutside` is read for compatibility only: each folder it lists must be listed
 *   here too.
 */
import path from 'node:path';
import type { Diagnostic } from '../util/errors.js';
import { ArdsiteError } from '../util/errors.js';
import { projectSecrets, type Jail } from '../project/project-jail.js';
import { isWithin } from '../util/within.js';
import { publicJwkThumbprint } from './jwk.js';
import type { SourceDoc } from '../model/source.js';
import type { PublisherConfig } from '../schema/publisher.js';
import type { OperatorTrust } from '../model/operator-trust.js';

/** The variable naming the key thumbprints the operator confirms. */
export const TRUSTED_KEYS_VARIABLE = 'ARDSITE_TRUSTED_KEYS';
/** The variable naming the folders outside the project that reads may reach. */
export const ALLOW_OUTSIDE_VARIABLE = 'ARDSITE_ALLOW_OUTSIDE';

/**
 * Reads the operator's decisions from `env` ({@link TRUSTED_KEYS_VARIABLE}, {@link ALLOW_OUTSIDE_VARIABLE},
 * `ARDSITE_SIGNING_KEY_FILE`), relative folders against `root`.
 * @param root the absolute project root.
 */
export function operatorTrust(root: string, env: NodeJS.ProcessEnv = process.env): OperatorTrust {
  const trustedKeys = new Set(
    (env[TRUSTED_KEYS_VARIABLE] ?? '')
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((k) => k.slice(k.lastIndexOf('#') + 1)),
  );
  const allowOutside = (env[ALLOW_OUTSIDE_VARIABLE] ?? '')
    .split(path.delimiter)
    .filter((f) => f.trim() !== '')
    .map((f) => path.resolve(root, f));
  const keyFile = env.ARDSITE_SIGNING_KEY_FILE;
  const keyFiles = keyFile && keyFile.trim() !== '' ? [path.resolve(root, keyFile)] : [];
  return { trustedKeys, allowOutside, keyFiles };
}

/**
 * The jail every read of a build stays in: the project and the operator's {@link OperatorTrust.allowOutside},
 * less the project's secrets (`.git`, `.env`, `.ardsite`, the operator's key files), which content never reads.
 */
export function projectJail(root: string, trust: OperatorTrust): Jail {
  return { root, allowOutside: trust.allowOutside, secrets: projectSecrets(root, trust.keyFiles) };
}

/** The sentence that says how the operator confirms keys: the exact variable and value to set. */
export function confirmKeysHint(thumbprints: readonly string[]): string {
  return `if you, who run the build, meant it, set ${TRUSTED_KEYS_VARIABLE}="${thumbprints.join(' ')}" in the build's environment (a CI variable, which a pull request cannot change)`;
}

/**
 * The findings on publisher.yaml's fields that act on keys or the file system without the operator's
 * word: each `allowOutside` folder not in {@link ALLOW_OUTSIDE_VARIABLE} (`ALLOW_OUTSIDE_NOT_CONFIRMED`)
 * and each `signing.retiredKeys` key content would publish (not `revoked`) whose thumbprint is not in
 * {@link TRUSTED_KEYS_VARIABLE} (`KEY_NOT_CONFIRMED`): content publishes no key on its own. A revoked entry
 * needs no word (it only takes a key away). A retired key whose JWK cannot be read is left to the key checks. Each finding names the field and its line.
 * @param root the absolute project root (relative `allowOutside` folders are resolved against it).
 */
export function contentTrustDiagnostics(
  root: string,
  publisher: PublisherConfig,
  source: SourceDoc,
  trust: OperatorTrust,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const unconfirmedFolders = publisher.allowOutside.filter(
    (f) => !trust.allowOutside.some((t) => t === path.resolve(root, f)),
  );
  publisher.allowOutside.forEach((folder, i) => {
    if (!unconfirmedFolders.includes(folder)) return;
    out.push(
      source.diagnostic(
        {
          code: 'ALLOW_OUTSIDE_NOT_CONFIRMED',
          severity: 'error',
          message: `allowOutside lists ${folder}, but content (which a pull request can change) does not decide what a build reads outside the project; if you, who run the build, meant it, set ${ALLOW_OUTSIDE_VARIABLE}="${unconfirmedFolders.join(path.delimiter)}" in the build's environment`,
          path: `allowOutside[${i}]`,
        },
        ['allowOutside', i],
      ),
    );
  });
  // A revoked entry only takes a key away (never published, never signs): it needs no word. A key content
  // would publish does, so flipping a revoked entry to a retired one is refused once the operator has
  // taken the key out of ARDSITE_TRUSTED_KEYS.
  const retired = publisher.signing.retiredKeys ?? [];
  const thumbprints = retired.map((r) => (r.revoked === true ? undefined : thumbprintOrUndefined(r.jwk)));
  const unconfirmed = thumbprints.filter((t): t is string => t !== undefined && !trust.trustedKeys.has(t));
  retired.forEach((entry, i) => {
    const t = thumbprints[i];
    if (t === undefined || trust.trustedKeys.has(t)) return;
    out.push(
      source.diagnostic(
        {
          code: 'KEY_NOT_CONFIRMED',
          severity: 'error',
          message: `signing.retiredKeys lists the retired key ${t}${entry.retireAt ? ` (until ${entry.retireAt})` : ''}, but a key published in did.json and jwks.json is not content's to choose (a pull request could add its own key here); ${confirmKeysHint(unconfirmed)}`,
          path: `signing.retiredKeys[${i}]`,
        },
        ['signing', 'retiredKeys', i],
      ),
    );
  });
  return out;
}

function thumbprintOrUndefined(jwk: unknown): string | undefined {
  try {
    return publicJwkThumbprint(jwk as { kty: string });
  } catch {
    return undefined;
  }
}

/**
 * Refuses to sign with a key that content chose (`signing.keyFile` in publisher.yaml, or a default key
 * file that git tracks, so that a pull request could have written it) unless the operator confirmed its
 * thumbprint in {@link TRUSTED_KEYS_VARIABLE}.
 * @param kid the key's `did:web:<domain>#<RFC 7638 thumbprint>`.
 * @param chosenBy how the message names what chose it, or undefined for a key the operator gave.
 * @throws ArdsiteError `KEY_NOT_CONFIRMED` saying what to set.
 */
export function assertOperatorKey(kid: string, chosenBy: string | undefined, trust: OperatorTrust): void {
  if (chosenBy === undefined) return;
  const thumbprint = kid.slice(kid.lastIndexOf('#') + 1);
  if (trust.trustedKeys.has(thumbprint)) return;
  throw new ArdsiteError(
    'KEY_NOT_CONFIRMED',
    `The signing key ${kid} comes from ${chosenBy}, which content (a pull request) can change: give the key with ARDSITE_SIGNING_KEY or ARDSITE_SIGNING_KEY_FILE, or, ${confirmKeysHint([thumbprint])}.`,
  );
}

/** True when the real path `file` is one of the operator's key files or lies inside one. */
export function isOperatorKeyFile(file: string, trust: OperatorTrust): boolean {
  return trust.keyFiles.some((k) => isWithin(k, file));
}
