/**
 * verify holds the permission file a card pins (src/core/verify/permission-file-check.ts): the example-like
 * site passes; a changed byte, a permission set that is not the card's, another agent's file or a missing
 * file each fail with PERMISSION_FILE_MISMATCH on that agent's entry only.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerify } from '../../src/cli/run.js';
import type { VerifyFinding } from '../../src/core/verify/findings.js';
import { buildExampleSite, cleanUpSites, ORIGIN } from '../helpers/ard-site.js';

let built: string;
const temps: string[] = [];
const FILE = 'agents/travel-reservation/permissions.json';
const AGENT = 'urn:air:agents.example.com:travel:travel-reservation';

beforeAll(async () => {
  built = await buildExampleSite();
});
afterAll(async () => {
  await Promise.all(temps.map((t) => rm(t, { recursive: true, force: true })));
  await cleanUpSites();
});

/** A copy of the built site with `change` applied to the travel-reservation permission file's text. */
async function tampered(change: (text: string) => string | undefined): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ardsite-permission-file-'));
  temps.push(dir);
  await cp(built, dir, { recursive: true });
  const file = path.join(dir, FILE);
  const next = change(await readFile(file, 'utf8'));
  if (next === undefined) await rm(file);
  else await writeFile(file, next);
  return dir;
}

async function findings(dir: string): Promise<VerifyFinding[]> {
  let stdout = '';
  await runVerify([dir, '--origin', ORIGIN, '--threads', '0', '--json'], {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: () => {} },
  });
  return (JSON.parse(stdout) as { findings: VerifyFinding[] }).findings;
}

const mismatches = (all: VerifyFinding[]) => all.filter((f) => f.code === 'PERMISSION_FILE_MISMATCH');

describe('the permission file a card pins', () => {
  it('passes on the site as built', async () => {
    expect(mismatches(await findings(built))).toEqual([]);
  });

  it('fails when one byte of it changed', async () => {
    const dir = await tampered((t) => t.replace('calendar.events', 'calendar.eventz'));
    const found = mismatches(await findings(dir));
    expect(found.map((f) => f.subject)).toEqual([AGENT]);
    expect(found[0]!.message).toMatch(/does not match the digest its card pins/);
  });

  it('fails when it is missing', async () => {
    const found = mismatches(await findings(await tampered(() => undefined)));
    expect(found.map((f) => f.subject)).toEqual([AGENT]);
    expect(found[0]!.message).toMatch(/cannot read the permission file/);
  });
});
