/**
 * The registry's run-time configuration: the `registry:` settings of the project's publisher.yaml
 * (src/core/schema/registry-settings.ts), read when the server starts, so that peers, rate limits and
 * timeouts change without a rebuild; and the pageToken HMAC secret, which never comes from a file: it is
 * read from the environment variable the settings name (`registry.pageToken.secretEnv`, default
 * `ARDSITE_REGISTRY_SECRET`). Every process serving one build must get the same secret, so that a token
 * issued by one is honoured by the others.
 */
import { randomBytes } from 'node:crypto';
import { loadPublisherFile } from '../content/load.js';
import { ArdsiteError, formatDiagnostic, hasErrors } from '../util/errors.js';
import type { PublisherConfig } from '../schema/publisher.js';
import { MIN_SECRET_BYTES } from './page-token.js';

/** The pageToken secret and where it came from. */
export interface ResolvedSecret {
  secret: Uint8Array;
  /** True for a per-process random secret (development only): tokens die with the process. */
  ephemeral: boolean;
}

/**
 * Reads the pageToken secret from `env[secretEnv]`. Without one, `dev` gives a random per-process secret
 * (the caller warns loudly); otherwise it is an error.
 * @throws ArdsiteError `REGISTRY_SECRET_MISSING` when the variable is unset (and not `dev`) or shorter
 *   than {@link MIN_SECRET_BYTES} bytes. The message names the variable, never a value.
 */
export function resolvePageTokenSecret(
  secretEnv: string,
  env: NodeJS.ProcessEnv,
  options: { dev: boolean },
): ResolvedSecret {
  const value = env[secretEnv];
  if (value !== undefined && value !== '') {
    const secret = new TextEncoder().encode(value);
    if (secret.length < MIN_SECRET_BYTES) {
      throw new ArdsiteError(
        'REGISTRY_SECRET_MISSING',
        `${secretEnv} holds fewer than ${MIN_SECRET_BYTES} bytes; use a long random value, e.g. export ${secretEnv}="$(openssl rand -base64 48)"`,
      );
    }
    return { secret, ephemeral: false };
  }
  if (options.dev) return { secret: new Uint8Array(randomBytes(32)), ephemeral: true };
  throw new ArdsiteError(
    'REGISTRY_SECRET_MISSING',
    `registry mode signs its page tokens with a secret from the environment variable ${secretEnv}, which is not set. Set the same value in every server process, e.g. export ${secretEnv}="$(openssl rand -base64 48)"; or, to try the registry on this machine only, run npm run serve -- --dev for a throw-away secret`,
  );
}

/**
 * Loads the publisher settings of the project at `root` (its content/publisher.yaml).
 * @throws ArdsiteError `REGISTRY_CONFIG_INVALID` listing the file's errors.
 */
export async function loadPublisherSettings(root: string): Promise<PublisherConfig> {
  const { publisher, diagnostics } = await loadPublisherFile({ root });
  if (!publisher || hasErrors(diagnostics)) {
    throw new ArdsiteError(
      'REGISTRY_CONFIG_INVALID',
      `content/publisher.yaml has errors:\n  ${diagnostics.map(formatDiagnostic).join('\n  ')}`,
      diagnostics,
    );
  }
  return publisher;
}
