/**
 * Guards around the signing key (DESIGN.md §4, §9): a revoked or retired key never signs, and no file
 * of a built site carries the private key's bytes, in any of the forms a key is written down.
 *
 * The private key is only read here through {@link keyMaterialForWorkers}; what leaves this module are
 * search patterns (kept in memory, never printed) and file names.
 */
import { createPrivateKey } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { ArdsiteError } from '../util/errors.js';
import { isFileSystemError } from '../project/regular-file.js';
import { keyMaterialForWorkers, type SigningKey } from './keys.js';
import type { RetiredKey } from './retired-keys.js';
import { publicJwkThumbprint } from './jwk.js';

/**
 * Refuses to sign with `key` when publisher.yaml lists it (same RFC 7638 thumbprint) under
 * `signing.retiredKeys` as `revoked: true`, or with a `retireAt` at or before `now` (DESIGN.md §4: a
 * rotated-out key is only published until then). A listed JWK that cannot be read is skipped here
 * (`npm run check` reports it).
 * @throws ArdsiteError `KEY_REVOKED` or `KEY_RETIRED`, naming the key's kid and its place in the list.
 */
export function assertKeyMaySign(key: SigningKey, retired: readonly RetiredKey[], now: Date): void {
  const thumbprint = key.kid.slice(key.kid.indexOf('#') + 1);
  retired.forEach((entry, i) => {
    let listed: string;
    try {
      listed = publicJwkThumbprint(entry.jwk as { kty: string });
    } catch {
      return;
    }
    if (listed !== thumbprint) return;
    const where = `signing.retiredKeys[${i}] in content/publisher.yaml`;
    if (entry.revoked === true) {
      throw new ArdsiteError(
        'KEY_REVOKED',
        `The signing key ${key.kid} is revoked (${where}): a revoked key never signs. Sign with the new key (ARDSITE_SIGNING_KEY, ARDSITE_SIGNING_KEY_FILE or signing.keyFile).`,
      );
    }
    const retireAt = entry.retireAt === undefined ? NaN : Date.parse(entry.retireAt);
    if (!Number.isNaN(retireAt) && retireAt <= now.getTime()) {
      throw new ArdsiteError(
        'KEY_RETIRED',
        `The signing key ${key.kid} was retired on ${entry.retireAt} (${where}): a retired key does not sign after its retireAt. Sign with the new key.`,
      );
    }
  });
}

/** base64 (RFC 4648 §4) in 64-character lines, as PEM writes it (RFC 7468 §2). */
const PEM_LINE_BYTES = 48;

/**
 * The byte patterns that betray `key`'s private part in a file: the scalar or seed `d` in base64url
 * (the JWK form), base64 and hex (lower and upper case), and each 64-character line of the PKCS#8 PEM
 * (and, for P-256, the SEC1 `EC PRIVATE KEY` PEM) that holds part of `d`. Patterns are 16 or more
 * characters, so a match is never a coincidence.
 */
export function privateKeyPatterns(key: SigningKey): Buffer[] {
  const { privateJwk } = keyMaterialForWorkers(key);
  const d = Buffer.from(privateJwk.d, 'base64url');
  const patterns = new Set<string>([
    d.toString('base64url'),
    d.toString('base64').replace(/=+$/, ''),
    d.toString('hex'),
    d.toString('hex').toUpperCase(),
  ]);
  const keyObject = createPrivateKey({ key: { ...privateJwk }, format: 'jwk' });
  const ders = [keyObject.export({ format: 'der', type: 'pkcs8' })];
  if (privateJwk.kty === 'EC') ders.push(keyObject.export({ format: 'der', type: 'sec1' }));
  for (const der of ders) {
    const at = der.indexOf(d);
    for (let start = 0; start < der.length; start += PEM_LINE_BYTES) {
      const end = Math.min(start + PEM_LINE_BYTES, der.length);
      if (at >= 0 && start < at + d.length && end > at) {
        const line = der.subarray(start, end).toString('base64');
        if (line.length >= 16) patterns.add(line);
      }
    }
  }
  return [...patterns].map((p) => Buffer.from(p, 'latin1'));
}

/**
 * Every file under `dir` (following links, each real folder once), as paths relative to `dir` with `/`,
 * sorted. Synchronous on purpose (measured: docs/benchmarks-archive.md, "Build at the floor"): a large
 * site has two folders per agent, and one promise per `readdir` and `realpath` made the walk slow.
 * A folder's real path is asked of the file system only for the root and for links; a folder reached
 * without a link is its parent's real path and its name.
 */
function listFiles(dir: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const walk = (rel: string, real: string): void => {
    if (seen.has(real)) return;
    seen.add(real);
    for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isSymbolicLink()) {
        let target: string | undefined;
        try {
          target = statSync(path.join(dir, r)).isDirectory() ? realpathSync(path.join(dir, r)) : undefined;
        } catch {
          target = undefined;
        }
        if (target === undefined) out.push(r);
        else walk(r, target);
      } else if (entry.isDirectory()) walk(r, path.join(real, entry.name));
      else out.push(r);
    }
  };
  walk('', realpathSync(dir));
  return out.sort();
}

/**
 * `true` for an error of the file system (src/core/project/regular-file.ts `isFileSystemError`): the file cannot
 * be cleared. Rethrows anything else (a fault of this code, never hidden as a finding).
 */
function cannotRead(error: unknown): true {
  if (isFileSystemError(error)) return true;
  throw error;
}

/** Bytes read and searched at once: memory stays bounded whatever a file's size. */
const CHUNK_BYTES = 1 << 20;

/**
 * Whether the file `file` holds any of `patterns`, read synchronously in chunks into `scratch` (kept for
 * the next file: no buffer per file, so no garbage collections over the heap of a large build); each chunk
 * is searched with the last `longest − 1` bytes of the one before (`longest`: the longest pattern's length), so a pattern across two chunks is found.
 * A file that is not a regular file (a FIFO, a device: looked at before it is opened, and opened
 * non-blocking) or cannot be read counts as holding them: it cannot be cleared.
 */
function fileHoldsPatterns(
  file: string,
  patterns: readonly Buffer[],
  longest: number,
  scratch: Buffer,
): boolean {
  const carry = longest - 1;
  let fd: number;
  try {
    if (!statSync(file).isFile()) return true;
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    return cannotRead(error);
  }
  try {
    if (!fstatSync(fd).isFile()) return true;
    let kept = 0;
    for (;;) {
      const n = readSync(fd, scratch, kept, scratch.length - kept, null);
      if (n === 0) return false;
      const end = kept + n;
      const bytes = scratch.subarray(0, end);
      if (patterns.some((p) => bytes.includes(p))) return true;
      kept = Math.min(carry, end);
      scratch.copy(scratch, 0, end - kept, end);
    }
  } catch (error) {
    return cannotRead(error);
  } finally {
    closeSync(fd);
  }
}

/**
 * The files under `dir` (relative, with `/`, sorted) that contain any of `patterns` (see
 * {@link privateKeyPatterns}); a file that cannot be read, or is no regular file, is listed too, since it
 * cannot be cleared. `options.skip(relative)` true leaves a file unread (the caller searched those bytes
 * already). Synchronous: it blocks its thread for the whole search.
 * @throws Error from the file system when `dir` or a folder under it cannot be listed.
 */
export function filesHoldingPatterns(
  dir: string,
  patterns: readonly Buffer[],
  options: { skip?: (relative: string) => boolean } = {},
): string[] {
  if (patterns.length === 0) return [];
  const skip = options.skip;
  const longest = Math.max(...patterns.map((p) => p.length));
  const scratch = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, 2 * longest));
  return listFiles(dir).filter(
    (rel) => !skip?.(rel) && fileHoldsPatterns(path.join(dir, rel), patterns, longest, scratch),
  );
}

/**
 * The build's last guard: fails when any file under `dir` holds the private key (see
 * {@link privateKeyPatterns}), whatever put it there (a key file in public/, a link, a key pasted into a
 * description).
 * @throws ArdsiteError `KEY_PRIVATE_PUBLISHED` naming the files, never the bytes.
 */
export function assertNoPrivateKeyBytes(dir: string, patterns: readonly Buffer[]): void {
  const found = filesHoldingPatterns(dir, patterns);
  if (found.length > 0) throw keyPublishedError(found);
}

/**
 * The error of a built site whose files (relative paths) hold the private key: ArdsiteError
 * `KEY_PRIVATE_PUBLISHED` naming them, sorted, never the bytes.
 */
export function keyPublishedError(files: readonly string[]): ArdsiteError {
  const found = [...new Set(files)].sort();
  return new ArdsiteError(
    'KEY_PRIVATE_PUBLISHED',
    `the built site holds the private signing key in ${found.join(', ')}; nothing was published and dist/ was left as it was. Remove the key (or the file holding it) from public/ and content/.`,
  );
}
