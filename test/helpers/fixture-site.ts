/**
 * A small built site for the verifier's hardening and fuzz tests: `test/fixtures/content-valid` (two
 * agents and one MCP entry of `agents.valid.example`) built once with the fixed TEST-ONLY key, and
 * throw-away copies of it to break. Never the example publisher's `content/`.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildProject, copyProject, fixedKeyEnv, removeProjects } from './build.js';
import { fixture } from './site.js';

/** The fixture's origin (`siteUrl` of test/fixtures/content-valid/content/publisher.yaml). */
export const FIXTURE_ORIGIN = 'https://agents.valid.example';

/** Builds `test/fixtures/content-valid` into a temporary folder; returns the built folder. */
export async function buildFixtureSite(): Promise<string> {
  const root = await copyProject(fixture('content-valid'));
  const result = await buildProject(root, { env: { ...fixedKeyEnv(), CI: '1' } });
  if (result.code !== 0) throw new Error(`the fixture site did not build:\n${result.stderr}`);
  return result.outDir;
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
