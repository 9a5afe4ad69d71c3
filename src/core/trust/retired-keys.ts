/**
 * Rotated-out signing keys (DESIGN.md §4): the public keys listed in publisher.yaml `signing.retiredKeys`
 * that stay in did.json and jwks.json until their `retireAt`, each under the `kid` it had as the active
 * key; a `revoked` one is dropped at once. Their members are checked as a private key's are
 * (./key-checks.ts), and a listed JWK that holds private members is refused.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { ArdsiteError } from '../util/errors.js';
import { assertNoPrivateMembers } from './did.js';
import type { PublishedJwk } from './jwk.js';
import { assertOnlyJwkMembers, isRecord, publicMembers, signingAlgOf } from './key-checks.js';
import { published } from './keys.js';

/** A malformed public key of publisher.yaml: says what is wrong. */
function invalid(label: string, what: string): never {
  throw new ArdsiteError('KEY_INVALID', `${label} is malformed: ${what}.`);
}

/** A rotated-out public key as listed in publisher.yaml. */
export interface RetiredKey {
  /** The public JWK (EC P-256 or OKP Ed25519); any `kid`/`alg`/`use` in it are recomputed. */
  jwk: unknown;
  /** ISO 8601 date or date-time (a date alone means 00:00 UTC); the key is published until then. */
  retireAt?: string;
  /** When true the key is dropped at once. */
  revoked?: boolean;
}

/**
 * The rotated-out public keys that must stay in did.json and jwks.json (DESIGN.md §4): those not
 * `revoked` whose `retireAt` is after `now`. A key without `retireAt` stays published (no end date set
 * yet). Each gets the `kid` it had as the active key (`did:web:<domain>#<RFC 7638 thumbprint>`),
 * `alg` and `use: "sig"`. Order is kept; duplicates (same kid) are dropped.
 *
 * @param retired entries from publisher.yaml.
 * @param now the build time (from `SOURCE_DATE_EPOCH` for reproducible builds).
 * @param domain the site's domain.
 * @returns the public JWKs to publish, never with private members.
 * @throws ArdsiteError `KEY_PRIVATE_PUBLISHED` (a listed JWK holds `d` or other private members),
 *   `KEY_WRONG_TYPE`, `KEY_INVALID` (bad members or not a point on the curve), `SCHEMA_INVALID_VALUE`
 *   (`retireAt` not an ISO date, bad domain).
 */
export function loadPublicKeysForRotation(
  retired: readonly RetiredKey[],
  now: Date,
  domain: string,
): PublishedJwk[] {
  const out: PublishedJwk[] = [];
  const seen = new Set<string>();
  for (const [i, entry] of retired.entries()) {
    const label = `The retired key ${i + 1} in publisher.yaml`;
    const jwk = entry.jwk;
    if (!isRecord(jwk)) invalid(label, 'a public JWK object was expected');
    assertNoPrivateMembers(jwk, label);
    if (entry.retireAt !== undefined) {
      const t =
        typeof entry.retireAt === 'string' && /^\d{4}-\d{2}-\d{2}([T ].*)?$/.test(entry.retireAt)
          ? Date.parse(entry.retireAt)
          : NaN;
      if (Number.isNaN(t)) {
        throw new ArdsiteError(
          'SCHEMA_INVALID_VALUE',
          `${label} has retireAt "${String(entry.retireAt)}", which is not an ISO 8601 date.`,
        );
      }
      if (t <= now.getTime()) continue;
    }
    if (entry.revoked === true) continue;
    const fault: (w: string) => never = (w) => invalid(label, w);
    const alg = signingAlgOf(jwk, label, fault);
    assertOnlyJwkMembers(jwk, fault);
    const { members, raw } = publicMembers(jwk, alg, fault);
    const onCurve =
      alg === 'ES256' ? p256.utils.isValidPublicKey(raw, false) : ed25519.utils.isValidPublicKey(raw);
    if (!onCurve) fault('the public key is not a point on the curve');
    const pub = published(members, alg, domain);
    if (seen.has(pub.kid)) continue;
    seen.add(pub.kid);
    out.push(pub);
  }
  return out;
}
