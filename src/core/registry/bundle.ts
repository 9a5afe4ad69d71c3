/**
 * The layout of a registry build (DESIGN.md §7, docs/guides/registry.md): `dist/` stays the static site,
 * byte for byte what a static build writes except that `ard.json` lists the registry entry, so it can
 * still be deployed to a CDN alone; the server bundle that @astrojs/node writes goes beside it, in
 * `<dist>-server/` (`dist-server/`), with a descriptor, `registry-build.json`, that ties it to the
 * `dist/` it was built with (the sha256 digest of that build's `ard.json`).
 *
 * The folder name ends in `server` on purpose: @astrojs/node 9.5 finds its client folder by walking up
 * from its own module until a folder name ends with the name of the server folder it was built into
 * (`server`), so any other name would never stop that walk.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256Digest } from '../ard/digest.js';
import { ArdsiteError } from '../util/errors.js';

/** The descriptor file inside the server folder. */
export const REGISTRY_BUILD_FILE = 'registry-build.json';
/** The module of the server bundle that exports @astrojs/node's `handler`. */
export const SERVER_ENTRY_FILE = 'entry.mjs';

/** What a registry build records about itself in {@link REGISTRY_BUILD_FILE}. */
export interface RegistryBuildDescriptor {
  /** Descriptor format version. */
  format: 1;
  /** The lookup API's base path, e.g. `/ard/v1`. */
  basePath: string;
  /** `https://<domain>` of the site. */
  origin: string;
  /** Identifier of the registry's `application/ai-registry+json` entry. */
  identifier: string;
  /** The registry's base URI (the entry's `url`). */
  url: string;
  /** `sha256:<hex>` of the `ard.json` of the `dist/` built with this bundle. */
  manifestDigest: string;
}

/** The server folder of the output folder `distDir`: `<distDir>-server`. */
export function registryServerDir(distDir: string): string {
  return `${path.resolve(distDir)}-server`;
}

/** Writes the descriptor into `serverDir`. */
export async function writeRegistryDescriptor(
  serverDir: string,
  descriptor: RegistryBuildDescriptor,
): Promise<void> {
  await writeFile(path.join(serverDir, REGISTRY_BUILD_FILE), `${JSON.stringify(descriptor, null, 2)}\n`);
}

/** A registry build found on disk. */
export interface RegistryBuild {
  descriptor: RegistryBuildDescriptor;
  /** Absolute path of the server bundle's entry module. */
  entryModule: string;
  /** The bytes of `dist/.well-known/ard.json` the descriptor pins. */
  manifestBytes: Uint8Array;
}

/**
 * Reads the registry build made of `distDir` and its server folder, and checks that they belong together.
 * @throws ArdsiteError `REGISTRY_BUILD_MISSING` saying what is missing or stale (no manifest, no server
 *   bundle or descriptor, a descriptor of another build).
 */
export async function readRegistryBuild(
  distDir: string,
  serverDir: string = registryServerDir(distDir),
): Promise<RegistryBuild> {
  const missing = (why: string): never => {
    throw new ArdsiteError(
      'REGISTRY_BUILD_MISSING',
      `${why}; build the site in registry mode first (npm run build -- --registry)`,
    );
  };
  const manifestBytes = await readFile(path.join(distDir, '.well-known', 'ard.json')).catch(() =>
    missing(`${distDir} holds no built site (no .well-known/ard.json)`),
  );
  const text = await readFile(path.join(serverDir, REGISTRY_BUILD_FILE), 'utf8').catch(() =>
    missing(`${serverDir} holds no registry server bundle (no ${REGISTRY_BUILD_FILE})`),
  );
  let descriptor: RegistryBuildDescriptor;
  try {
    descriptor = JSON.parse(text) as RegistryBuildDescriptor;
  } catch {
    return missing(`${path.join(serverDir, REGISTRY_BUILD_FILE)} is not JSON`);
  }
  if (descriptor.format !== 1 || typeof descriptor.basePath !== 'string')
    return missing(`${path.join(serverDir, REGISTRY_BUILD_FILE)} is not a descriptor this version reads`);
  if (descriptor.manifestDigest !== sha256Digest(manifestBytes)) {
    return missing(
      `${serverDir} was built with another ${distDir}/.well-known/ard.json than the one there now (a static build, or another build, replaced ${distDir})`,
    );
  }
  const entryModule = path.join(serverDir, SERVER_ENTRY_FILE);
  if (!existsSync(entryModule)) return missing(`${serverDir} has no ${SERVER_ENTRY_FILE}`);
  return { descriptor, entryModule, manifestBytes: new Uint8Array(manifestBytes) };
}

/**
 * Refuses a server folder whose replacement would destroy something other than a previous server bundle:
 * the project folder or a folder holding it, a file, or a non-empty folder without
 * {@link REGISTRY_BUILD_FILE}.
 * @throws ArdsiteError `BUILD_OUT_DIR_UNSAFE`.
 */
export function assertReplaceableServerDir(root: string, serverDir: string): void {
  const r = path.resolve(root);
  const d = path.resolve(serverDir);
  const refuse = (why: string): never => {
    throw new ArdsiteError(
      'BUILD_OUT_DIR_UNSAFE',
      `the registry server folder ${d} ${why}; choose another --out`,
    );
  };
  const rel = path.relative(d, r);
  if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel)))
    refuse('is the project folder or contains it');
  let stats;
  try {
    stats = statSync(d);
  } catch {
    return;
  }
  if (!stats.isDirectory()) refuse('is a file, not a folder');
  if (readdirSync(d).length > 0 && !existsSync(path.join(d, REGISTRY_BUILD_FILE)))
    refuse(`is not empty and is not a registry server bundle (it has no ${REGISTRY_BUILD_FILE})`);
}
