/**
 * The site's key file (DESIGN.md §4): finding the private signing key (an environment variable, a file
 * named in publisher.yaml, or `.ardsite/keys/signing.jwk.json`), and creating that file, git-ignored and
 * mode 0600, when there is none. Messages name where a key came from, never its bytes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { writeContained } from '../project/contained-write.js';
import path from 'node:path';
import { ArdsiteError } from '../util/errors.js';
import { outsideMessage, placeInJail } from '../project/project-jail.js';
import { createSigningKey, generatePrivateJwk, type SigningKey } from './keys.js';
import { parsePrivateKey, type ParsedPrivateKey } from './key-checks.js';
import type { PrivateSigningJwk, SigningAlgorithm } from './jwk.js';
import { npmCommand } from '../util/shell-word.js';

/** Options of {@link resolveSigningKey}. */
export interface ResolveSigningKeyOptions {
  /** The project root (folder of `content/`); relative paths are resolved against it. */
  root: string;
  /** The site's domain, for the kid. */
  domain: string;
  /** Environment to read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** `signing.keyFile` from publisher.yaml, relative to `root`. */
  keyFile?: string;
  /** `signing.requireKey`: a missing key is an error, never created. */
  requireKey?: boolean;
  /** Algorithm of a key created here (default ES256). When given, a found key of another algorithm is refused. */
  algorithm?: SigningAlgorithm;
}

/** Result of {@link resolveSigningKey}. */
export interface ResolvedSigningKey {
  key: SigningKey;
  /** Where the key came from, for messages: `"ARDSITE_SIGNING_KEY"`, a file path, or the throw-away note. */
  source: string;
  /** True when the key file was created by this call (the caller should say so loudly). */
  created: boolean;
  /** True for an in-memory throw-away key (`ARDSITE_DEV_KEY=1`), written nowhere. */
  ephemeral: boolean;
  /** The absolute path of the key file, when the key came from one (checked by the build against public/). */
  file?: string;
  /**
   * What in content chose this key, when content did (`signing.keyFile in content/publisher.yaml`, or a
   * default key file that git tracks, which a pull request could have added): such a key signs only when
   * the operator confirms it (src/core/trust/operator-trust.ts `assertOperatorKey`). Undefined for a key the
   * operator gave (an environment variable, an untracked key file of this machine, a key made here).
   */
  chosenByContent?: string;
}

/** Path of the default key file, relative to the project root. */
export const DEFAULT_KEY_FILE = '.ardsite/keys/signing.jwk.json';

function flagSet(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

function display(root: string, file: string): string {
  const rel = path.relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

function readKeyFile(file: string, shown: string, configuredBy: string | undefined): ParsedPrivateKey {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && configuredBy !== undefined) {
      throw new ArdsiteError(
        'KEY_MISSING',
        `${configuredBy} names the key file ${shown}, which does not exist.`,
      );
    }
    throw new ArdsiteError('FILE_UNREADABLE', `The key file ${shown} cannot be read (${code ?? 'error'}).`);
  }
  return parsePrivateKey(text, shown);
}

type IgnoreStatus = 'ignored' | 'not-ignored' | 'no-repo';

function gitIgnoreStatus(root: string, rel: string): IgnoreStatus {
  try {
    execFileSync('git', ['check-ignore', '-q', '--', rel], { cwd: root, stdio: 'ignore' });
    return 'ignored';
  } catch (err) {
    return (err as { status?: number | null }).status === 1 ? 'not-ignored' : 'no-repo';
  }
}

/** True when git tracks `rel` in the repository at `root` (false without git or a repository). */
function gitTracks(root: string, rel: string): boolean {
  try {
    execFileSync('git', ['ls-files', '--error-unmatch', '--', rel], { cwd: root, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** What to do without a key, for the project at `root` (its `--root` named when it is not the working folder). */
function missingKeyHelp(root: string): string {
  const keygen = npmCommand('keygen', root);
  return (
    'Provide the site key as ARDSITE_SIGNING_KEY (the private JWK or PKCS#8 PEM text, e.g. from a CI secret) ' +
    'or ARDSITE_SIGNING_KEY_FILE (a path), or signing.keyFile in content/publisher.yaml. ' +
    `Create one on your machine with \`${keygen}\`. ` +
    'For a throw-away test build only, set ARDSITE_DEV_KEY=1 (its signatures are worthless to anyone else).'
  );
}

function checkAlgorithm(
  parsed: ParsedPrivateKey,
  wanted: SigningAlgorithm | undefined,
  source: string,
): void {
  if (wanted !== undefined && parsed.alg !== wanted) {
    throw new ArdsiteError(
      'KEY_WRONG_TYPE',
      `The signing key from ${source} is ${parsed.alg}, but ${wanted} is configured.`,
    );
  }
}

/**
 * Finds the site's private signing key, in the order of DESIGN.md §4:
 * 1. `env.ARDSITE_SIGNING_KEY` (JWK or PEM text);
 * 2. `env.ARDSITE_SIGNING_KEY_FILE` (a path, relative to `root` unless absolute);
 * 3. `options.keyFile` (publisher.yaml `signing.keyFile`, relative to `root`);
 * 4. `<root>/.ardsite/keys/signing.jwk.json`.
 * A file named by 2 or 3 must exist. When 4 does not exist either:
 * - `requireKey` → `KEY_MISSING`;
 * - `ARDSITE_DEV_KEY=1` → an in-memory throw-away key (`ephemeral: true`), written nowhere, with or
 *   without `CI`;
 * - `CI` set (any value but empty, `0`, `false`) → `KEY_MISSING` with how to provide a key;
 * - otherwise a new key is generated and written to `.ardsite/keys/signing.jwk.json` (file mode 0600,
 *   created folders 0700, `created: true`), but only after `git check-ignore -q` run in `root` confirms
 *   git ignores that path.
 *
 * @returns `{ key, source, created, ephemeral }`.
 * @throws ArdsiteError `KEY_MISSING`, `KEY_NOT_IGNORED` (path not ignored, `root` not in a git
 *   repository, or git not installed), `KEY_INVALID` / `KEY_WRONG_TYPE` (as {@link parsePrivateKey},
 *   naming the env var or file; also when `algorithm` is given and the key has another one),
 *   `FILE_UNREADABLE`, `SCHEMA_INVALID_VALUE` (bad domain).
 */
export async function resolveSigningKey(options: ResolveSigningKeyOptions): Promise<ResolvedSigningKey> {
  const env = options.env ?? process.env;
  const root = path.resolve(options.root);
  const found = (
    parsed: ParsedPrivateKey,
    source: string,
    file?: string,
    chosenByContent?: string,
  ): ResolvedSigningKey => {
    checkAlgorithm(parsed, options.algorithm, source);
    return {
      key: createSigningKey(parsed.privateJwk, options.domain),
      source,
      created: false,
      ephemeral: false,
      ...(file === undefined ? {} : { file }),
      ...(chosenByContent === undefined ? {} : { chosenByContent }),
    };
  };

  const inline = env.ARDSITE_SIGNING_KEY;
  if (inline !== undefined && inline.trim() !== '') {
    return found(parsePrivateKey(inline, 'ARDSITE_SIGNING_KEY'), 'ARDSITE_SIGNING_KEY');
  }
  const configured: Array<[string | undefined, string]> = [
    [env.ARDSITE_SIGNING_KEY_FILE, 'ARDSITE_SIGNING_KEY_FILE'],
    [options.keyFile, 'signing.keyFile in content/publisher.yaml'],
  ];
  for (const [file, by] of configured) {
    if (file === undefined || file.trim() === '') continue;
    const abs = path.resolve(root, file);
    const shown = display(root, abs);
    // publisher.yaml is content, which a contributor's pull request may change: its keyFile must stay in
    // the project (DESIGN.md §9). ARDSITE_SIGNING_KEY_FILE is set by whoever runs the build (a CI secret
    // file lives outside the checkout, in $RUNNER_TEMP or /run/secrets), so it may point anywhere.
    if (by !== 'ARDSITE_SIGNING_KEY_FILE') {
      const place = placeInJail(abs, { root });
      if (place.state === 'outside') {
        throw new ArdsiteError(
          'FILE_OUTSIDE_PROJECT',
          `signing.keyFile in content/publisher.yaml: ${outsideMessage(shown, place.real)}. Give a key kept outside the project with ARDSITE_SIGNING_KEY_FILE instead.`,
        );
      }
    }
    const byContent = by === 'ARDSITE_SIGNING_KEY_FILE' ? undefined : by;
    return found(readKeyFile(abs, shown, by), shown, abs, byContent);
  }

  const defaultFile = path.join(root, DEFAULT_KEY_FILE);
  if (existsSync(defaultFile)) {
    const tracked = gitTracks(root, DEFAULT_KEY_FILE)
      ? `${DEFAULT_KEY_FILE}, a file git tracks (so a commit, not this machine, put it there)`
      : undefined;
    return found(
      readKeyFile(defaultFile, DEFAULT_KEY_FILE, undefined),
      DEFAULT_KEY_FILE,
      defaultFile,
      tracked,
    );
  }

  if (options.requireKey) {
    throw new ArdsiteError(
      'KEY_MISSING',
      `No signing key found and signing.requireKey is set. ${missingKeyHelp(root)}`,
    );
  }
  const alg = options.algorithm ?? 'ES256';
  // Asked for by name, a throw-away key is used in CI and on a machine alike (the hints of every key
  // error suggest it); it is never written, so it cannot become the site's identity by accident.
  if (env.ARDSITE_DEV_KEY === '1') {
    const key = createSigningKey(await generatePrivateJwk(alg), options.domain);
    return { key, source: 'throw-away key (ARDSITE_DEV_KEY=1)', created: false, ephemeral: true };
  }
  if (flagSet(env.CI)) {
    throw new ArdsiteError(
      'KEY_MISSING',
      'No signing key found, and none is created when CI is set (a new key on every deploy would change the ' +
        `publisher's identity each time). ${missingKeyHelp(root)}`,
    );
  }

  const written = await writeNewKeyFile(root, DEFAULT_KEY_FILE, alg, missingKeyHelp(root));
  if (written === 'exists') {
    // Another process created it meanwhile: use that one.
    return found(readKeyFile(defaultFile, DEFAULT_KEY_FILE, undefined), DEFAULT_KEY_FILE, defaultFile);
  }
  return {
    key: createSigningKey(written, options.domain),
    source: DEFAULT_KEY_FILE,
    created: true,
    ephemeral: false,
    file: defaultFile,
  };
}

/**
 * Generates a private key and writes it to `relPath` under `root` (file mode 0600, created folders
 * 0700), only after `git check-ignore -q` confirms git ignores that path, and never over an existing
 * file. Used by the build (DESIGN.md §4) and by `npm run keygen`.
 *
 * @param root the project root (a git work tree).
 * @param relPath the key file, relative to `root`.
 * @param alg the key type.
 * @param help a sentence appended to the `KEY_NOT_IGNORED` message (how else to provide a key).
 * @returns the private JWK written, or `'exists'` when the file already exists (it is left untouched).
 * @throws ArdsiteError `KEY_NOT_IGNORED` (not ignored, not a git repository, or no git),
 *   `FILE_WRITE_REFUSED` (the path leaves `root` or goes through a symbolic link, src/core/project/contained-write.ts),
 *   `FILE_UNREADABLE` (the file cannot be written).
 */
export async function writeNewKeyFile(
  root: string,
  relPath: string,
  alg: SigningAlgorithm,
  help = '',
): Promise<PrivateSigningJwk | 'exists'> {
  const file = path.resolve(root, relPath);
  if (existsSync(file)) return 'exists';
  const status = gitIgnoreStatus(root, relPath);
  if (status !== 'ignored') {
    const why =
      status === 'not-ignored'
        ? `git does not ignore ${relPath}`
        : `${root} is not inside a git repository (or git is not installed), so it cannot be checked that git ignores ${relPath}`;
    throw new ArdsiteError(
      'KEY_NOT_IGNORED',
      `A new key is not written because ${why}. Add the line "${relPath.split('/')[0]}/" to .gitignore ` +
        `(and run git init if needed)${help ? `, or provide a key (${help})` : ''}.`,
    );
  }
  const privateJwk = await generatePrivateJwk(alg);
  const inside = path.relative(path.resolve(root), file).split(path.sep).join('/');
  let result: 'written' | 'exists';
  try {
    // Folders made 0700, the file 0600, inside the project only and never through a link.
    result = writeContained(root, inside, `${JSON.stringify(privateJwk, null, 2)}\n`, {
      mode: 0o600,
      folderMode: 0o700,
      exclusive: true,
    });
  } catch (err) {
    if (err instanceof ArdsiteError) throw err;
    throw new ArdsiteError(
      'FILE_UNREADABLE',
      `The key file ${relPath} cannot be written (${(err as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
  if (result === 'exists') return 'exists';
  return privateJwk;
}
