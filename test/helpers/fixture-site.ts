/**
 * A small built site for the verifier's hardening and fuzz tests: `test/fixtures/content-valid` (two
 * agents and one MCP entry of `agents.valid.example`) built once per run with the fixed TEST-ONLY key, and
 * throw-away copies of it to break. Never the example publisher's `content/`.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fixedKeyEnv, removeProjects } from './build.js';
import { sharedBuild } from './shared-build.js';
import { fixture } from './site.js';

/** The fixture's origin (`siteUrl` of test/fixtures/content-valid/content/publisher.yaml). */
export const FIXTURE_ORIGIN = 'https://agents.valid.example';

/**
 * `test/fixtures/content-valid` built with the fixed TEST-ONLY key: a private copy of the one build the
 * test files of a group share (./shared-build.ts).
 * @returns the built folder. @throws Error as `sharedBuild` (the build's output when it failed).
 */
export async function buildFixtureSite(): Promise<string> {
  return sharedBuild(fixture('content-valid'), { copy: true, env: { ...fixedKeyEnv(), CI: '1' } });
}

const copies: string[] = [];

/** A fresh copy of the built folder `built`, removed by {@link removeFixtureSites}. */
export async function copyBuiltSite(built: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ardsite-hostile-'));
  copies.push(dir);
  await cp(built, dir, { recursive: true });
  return dir;
}

/** Removes every copy and the built project (call from `afterAll`). */
export async function removeFixtureSites(): Promise<void> {
  await Promise.all(copies.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  await removeProjects();
}
