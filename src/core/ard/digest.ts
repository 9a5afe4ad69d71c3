/**
 * Content digests in the ARD form `<alg>:<lowercase hex>` (ARD draft §3.2.3), e.g.
 * `sha256:9f86d0…`. ardsite writes sha256 and accepts sha256, sha384 and sha512 when checking.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { ArdsiteError } from '../util/errors.js';

/** The digest algorithms ardsite understands, named as in the ARD digest prefix. */
export type DigestAlgorithm = 'sha256' | 'sha384' | 'sha512';

/** Hex length of each algorithm's output (bytes × 2). */
const HEX_LENGTH: Readonly<Record<DigestAlgorithm, number>> = { sha256: 64, sha384: 96, sha512: 128 };

/** A parsed digest: the algorithm and its output as lowercase hex. */
export interface ParsedDigest {
  algorithm: DigestAlgorithm;
  /** Lowercase hex, exactly 64 (sha256), 96 (sha384) or 128 (sha512) characters. */
  hex: string;
}

function toBytes(input: Uint8Array | string): Uint8Array {
  return typeof input === 'string' ? new TextEncoder().encode(input) : input;
}

function hashHex(algorithm: DigestAlgorithm, bytes: Uint8Array): string {
  return createHash(algorithm).update(bytes).digest('hex');
}

/**
 * SHA-256 (FIPS 180-4) of `bytes` in ARD digest form (ARD draft §3.2.3).
 *
 * @param bytes the exact bytes served; a string is hashed as its UTF-8 encoding.
 * @returns `"sha256:"` followed by 64 lowercase hex characters.
 */
export function sha256Digest(bytes: Uint8Array | string): string {
  return `sha256:${hashHex('sha256', toBytes(bytes))}`;
}

/**
 * Splits an ARD digest string `<alg>:<hex>` (ARD draft §3.2.3) into its parts.
 *
 * The algorithm must be `sha256`, `sha384` or `sha512` and the hex must have that algorithm's length.
 * Hex is accepted in either case and returned lowercase; the algorithm name must be lowercase.
 *
 * @param s the digest string, e.g. `"sha256:e3b0c442…b855"`.
 * @returns `{ algorithm, hex }` with `hex` lowercase.
 * @throws ArdsiteError `SCHEMA_INVALID_VALUE` when the shape, algorithm or hex length is wrong.
 */
export function parseDigest(s: string): ParsedDigest {
  if (typeof s !== 'string') {
    throw new ArdsiteError('SCHEMA_INVALID_VALUE', 'A digest must be a string "<alg>:<hex>".');
  }
  const m = /^([a-z0-9-]+):([0-9a-fA-F]+)$/.exec(s);
  if (!m || m[1] === undefined || m[2] === undefined) {
    throw new ArdsiteError(
      'SCHEMA_INVALID_VALUE',
      `"${s}" is not a digest of the form "<alg>:<hex>" (e.g. sha256:…).`,
    );
  }
  const algorithm = m[1];
  if (!(algorithm in HEX_LENGTH)) {
    throw new ArdsiteError(
      'SCHEMA_INVALID_VALUE',
      `Digest algorithm "${algorithm}" is not supported; use sha256, sha384 or sha512.`,
    );
  }
  const alg = algorithm as DigestAlgorithm;
  const hex = m[2].toLowerCase();
  if (hex.length !== HEX_LENGTH[alg]) {
    throw new ArdsiteError(
      'SCHEMA_INVALID_VALUE',
      `A ${alg} digest has ${HEX_LENGTH[alg]} hex characters, this one has ${hex.length}.`,
    );
  }
  return { algorithm: alg, hex };
}

/**
 * True when `digest` (ARD form, sha256/sha384/sha512) is the hash of `bytes`. The comparison is
 * constant-time over the digest bytes.
 *
 * @param digest `<alg>:<hex>` as in ARD draft §3.2.3.
 * @param bytes the bytes to check; a string is hashed as UTF-8.
 * @returns whether the digest matches.
 * @throws ArdsiteError `SCHEMA_INVALID_VALUE` when `digest` itself is malformed (see {@link parseDigest}).
 */
export function digestMatches(digest: string, bytes: Uint8Array | string): boolean {
  const { algorithm, hex } = parseDigest(digest);
  const actual = Buffer.from(hashHex(algorithm, toBytes(bytes)), 'hex');
  const expected = Buffer.from(hex, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
