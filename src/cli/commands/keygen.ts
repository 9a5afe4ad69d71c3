/**
 * `npm run keygen`: creates the site's signing key (DESIGN.md §4) and prints its public JWK and kid.
 *
 * Usage: npm run keygen [-- --alg ES256|EdDSA] [-- --out <path relative to the project>] [-- --root <project>]
 *
 * The private key is written to `.ardsite/keys/signing.jwk.json` (or `--out`) with mode 0600, only where
 * git ignores it, and never over an existing key. It is never printed. For CI, store the file's content
 * as a secret and pass it in ARDSITE_SIGNING_KEY.
 */
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { readYaml } from '../../core/bounded-yaml.js';
import { ArdsiteError } from '../../core/errors.js';
import { createSigningKey } from '../../core/trust/keys.js';
import { DEFAULT_KEY_FILE, writeNewKeyFile } from '../../core/trust/key-file.js';
import { type SigningAlgorithm } from '../../core/trust/jwk.js';
import { parseCommandLine, projectFolder } from '../lib/args.js';

const { values } = parseCommandLine(
  {
    options: {
      alg: { type: 'string' },
      out: { type: 'string', default: DEFAULT_KEY_FILE },
      root: { type: 'string', default: process.cwd() },
    },
  },
  'usage: ardsite keygen [--alg ES256|EdDSA] [--out <path in the project>] [--root <project folder>]',
);

async function main(): Promise<number> {
  const root = projectFolder(values.root!);
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
  const written = await writeNewKeyFile(root, values.out!, alg);
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

try {
  process.exitCode = await main();
} catch (error) {
  process.stderr.write(
    `keygen: ${(error as Error).message}${error instanceof ArdsiteError ? ` [${error.code}]` : ''}\n`,
  );
  process.exitCode = 1;
}
