/**
 * A small Astro site of a publisher's own (a home page and an about page, optionally a robots.txt or
 * llms.txt in `public/`), with or without the ardsite integration, and `astro build` / `astro dev` runs
 * of it: the host site of the integration's build tests (test/build/) and of the packed-package test
 * (test/package/). The ardsite project it uses is a copy of a fixture of test/fixtures/.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TEST_KEY_ES256 } from './build.js';
import { REPO_ROOT } from './site.js';

/** The pages the site has of its own, as Astro writes them (directory format). */
export const OWN_PAGES = ['index.html', 'about/index.html'];

/** How to make one site. */
export interface AstroSiteOptions {
  /** The module specifier of the integration (`ardsite/astro`, or a file URL); none: a site without it. */
  integration?: string;
  /** The options given to `ardsite()`, as JSON. */
  options?: Record<string, unknown>;
  /** Files of the site's own, relative to its root (`public/robots.txt`), with their text. */
  files?: Record<string, string>;
  /** The fixture of test/fixtures/ copied as the ardsite project (default `content-valid`). */
  fixture?: string;
}

/** Writes the Astro site into `dir`, with a copy of the fixture in `dir/ardsite` when it uses ardsite. */
export async function writeAstroSite(dir: string, site: AstroSiteOptions = {}): Promise<void> {
  const page = (title: string) =>
    `---\n---\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1></body></html>\n`;
  const files: Record<string, string> = {
    'src/pages/index.astro': page('Home of the publisher'),
    'src/pages/about/index.astro': page('About us'),
    'astro.config.mjs': site.integration
      ? `import { defineConfig } from 'astro/config';\nimport ardsite from ${JSON.stringify(site.integration)};\nexport default defineConfig({ integrations: [ardsite(${JSON.stringify(site.options ?? {})})] });\n`
      : `import { defineConfig } from 'astro/config';\nexport default defineConfig({});\n`,
    ...site.files,
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  await mkdir(path.join(dir, 'public'), { recursive: true });
  if (site.integration) {
    await cp(
      path.join(REPO_ROOT, 'test', 'fixtures', site.fixture ?? 'content-valid'),
      path.join(dir, 'ardsite'),
      {
        recursive: true,
      },
    );
  }
}

/**
 * The environment of an Astro run: the parent's without the variables of the test runner, CI and
 * ardsite's own, plus the TEST-ONLY signing key and a fixed `SOURCE_DATE_EPOCH`.
 */
export function astroEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !/^(CI|ARDSITE_.*|VITEST.*|NODE_ENV|TEST|npm_.*|INIT_CWD)$/.test(k)) env[k] = v;
  }
  env.ARDSITE_SIGNING_KEY = TEST_KEY_ES256;
  env.SOURCE_DATE_EPOCH = '1764000000';
  env.ASTRO_TELEMETRY_DISABLED = '1';
  env.NO_COLOR = '1';
  return env;
}

/**
 * Runs `astro build` in `dir` with `astroBin` (an `astro.js`), Node given `nodeArgs` first (`--import tsx`
 * to load an integration written in TypeScript); never throws.
 * @returns the exit code and stdout followed by stderr.
 */
export function astroBuild(
  astroBin: string,
  dir: string,
  nodeArgs: readonly string[] = [],
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...nodeArgs, astroBin, 'build'],
      { cwd: dir, env: astroEnv(), timeout: 300_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** A running `astro dev`: its process, what it printed so far, and where it listens once it said so. */
export interface AstroDev {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the local URL (`http://localhost:4321/`) Astro prints when ready. */
  ready: Promise<string>;
  /** Stops the server (SIGTERM to its process) and waits for it to end. */
  stop: () => Promise<void>;
}

/** Starts `astro dev` in `dir` on `port` (see {@link astroBuild} for `astroBin` and `nodeArgs`). */
export function astroDev(
  astroBin: string,
  dir: string,
  port: number,
  nodeArgs: readonly string[] = [],
): AstroDev {
  const child = spawn(process.execPath, [...nodeArgs, astroBin, 'dev', '--port', String(port)], {
    cwd: dir,
    env: astroEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const url = /Local\s+(http:\/\/\S+)/.exec(text)?.[1];
      if (url) resolve(url);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`astro dev ended with ${code}:\n${text}`)));
  });
  ready.catch(() => undefined);
  const ended = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    child,
    output: () => text,
    ready,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await ended;
    },
  };
}
