/**
 * `ardsite keygen [--alg ES256|EdDSA] [--out <path in the project>] [--root <project>]`: creates the
 * site's signing key (ARD draft §6, did:web) and prints its public JWK and kid.
 *
 * The private key is written to `.ardsite/keys/signing.jwk.json` (or `--out`) with mode 0600, only where
 * git ignores it, and never over an existing key. It is never printed. For CI, store the file's content
 * as a secret and pass it in ARDSITE_SIGNING_KEY.
 */
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { readYaml } from '../../core/util/bounded-yaml.js';
import { ArdsiteError } from '../../core/util/errors.js';
import { createSigningKey } from '../../core/trust/keys.js';
import { writeNewKeyFile } from '../../core/trust/key-file.js';
import { type SigningAlgorithm } from '../../core/trust/jwk.js';
import { projectFolder } from '../lib/args.js';

/** The options of `ardsite keygen` (src/cli/program.ts declares them). */
export interface KeygenCommandOptions {
  /** The project folder. */
  root: string;
  /** `ES256` or `EdDSA`; default publisher.yaml's `signing.algorithm`, else ES256. */
  alg?: string;
  /** Where the key is written, relative to the project (default `.ardsite/keys/signing.jwk.json`). */
  out: string;
}

/**
 * Runs `ardsite keygen` and returns its exit code: 0 written, 1 a key exists there or cannot be written,
 * 2 an algorithm refused.
 *
 * @throws UsageError when `--root` is not a folder.
 */
export async function runKeygen(values: KeygenCommandOptions): Promise<number> {
  const root = projectFolder(values.root);
  let domain: string | undefined;
  let configured: string | undefined;
  try {
    const text = await readFile(path.join(root, 'content/publisher.yaml'), 'utf8');
    const publisher = readYaml(text, 'content/publisher.yaml') as {
      domain?: unknown;
      signing?: { algorithm?: unknown };
    };
    if (typeof publisher?.domain === 'string') domain = publisher.domain;
    if (typeof publisher?.signing?.algorithm === 'string') configured = publisher.signing.algorithm;
  } catch {
    // No publisher file yet: the kid is shown once a domain is set.
  }
  // The key type publisher.yaml asks for, unless --alg says otherwise.
  const alg = (values.alg ?? configured ?? 'ES256') as SigningAlgorithm;
  if (alg !== 'ES256' && alg !== 'EdDSA') {
    process.stderr.write(`keygen: --alg is ES256 (P-256, the default) or EdDSA (Ed25519), not "${alg}"\n`);
    return 2;
  }
  if (configured !== undefined && configured !== alg) {
    process.stderr.write(
      `keygen: content/publisher.yaml sets signing.algorithm: ${configured}, and the build refuses a key of another type; ` +
        `set signing.algorithm: ${alg} there first, or leave out --alg.\n`,
    );
    return 2;
  }
  let written;
  try {
    written = await writeNewKeyFile(root, values.out, alg);
  } catch (error) {
    process.stderr.write(
      `keygen: ${(error as Error).message}${error instanceof ArdsiteError ? ` [${error.code}]` : ''}\n`,
    );
    return 1;
  }
  if (written === 'exists') {
    process.stderr.write(
      `keygen: ${values.out} already exists and is left as it is. Move it away first to make a new key ` +
        "(a new key changes the site's identity: list the old public key under signing.retiredKeys with a retireAt date, " +
        'and its thumbprint in ARDSITE_TRUSTED_KEYS where the site is built).\n',
    );
    return 1;
  }
  const { d: _private, ...publicJwk } = written;
  process.stderr.write(
    `Wrote a new ${alg} private key to ${values.out} (mode 0600). Keep it secret and back it up.\n`,
  );
  if (domain) {
    const key = createSigningKey(written, domain);
    process.stderr.write(`kid: ${key.kid}\n`);
    process.stdout.write(`${JSON.stringify(key.publicJwk, null, 2)}\n`);
  } else {
    process.stdout.write(`${JSON.stringify(publicJwk, null, 2)}\n`);
  }
  return 0;
}
