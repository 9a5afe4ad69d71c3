/**
 * Where ardsite itself is installed: the folder holding its package.json, astro.config.mjs and
 * `src/pages` (Astro's `root` when it renders a publisher's project). The same from the TypeScript
 * sources (`src/core/project/app-root.ts`, run through tsx or Vite) and from the compiled package
 * (`lib/core/project/app-root.js`): both sit two folders below it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Absolute path of ardsite's own folder, with no trailing separator. Never throws. */
export function appRoot(): string {
  return fileURLToPath(new URL('../../..', import.meta.url)).replace(/[\\/]$/, '');
}

/**
 * The version in ardsite's own package.json (semver, as npm publishes it).
 * @throws Error when that file cannot be read (a broken installation).
 */
export function ardsiteVersion(): string {
  const manifest = JSON.parse(readFileSync(`${appRoot()}/package.json`, 'utf8')) as { version: string };
  return manifest.version;
}
