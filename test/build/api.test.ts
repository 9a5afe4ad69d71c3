/**
 * The programmatic API (`import { build, check, verify, diff } from 'ardsite'`, src/index.ts), called
 * in-process as an integration or a test would: results returned, progress through the one event sink,
 * errors thrown as ArdsiteError with the content's diagnostics; nothing printed, no exit.
 */
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ArdsiteError, build, check, diff, verify, type BuildEvent } from '../../src/index.js';
import { copyProject, removeProjects, TEST_KEY_ES256 } from '../helpers/build.js';
import { REPO_ROOT } from '../helpers/site.js';

const fixture = (name: string) => path.join(REPO_ROOT, 'test', 'fixtures', name);

afterAll(removeProjects);

describe('check: the content of a project', () => {
  it('returns every diagnostic of a broken project, with its file, and the counts', async () => {
    const result = await check({ root: fixture('content-broken') });
    expect(result.errors).toBeGreaterThan(1);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toHaveLength(result.errors);
    expect(result.diagnostics.every((d) => typeof d.file === 'string' && d.file.startsWith('content/'))).toBe(
      true,
    );
  });

  it('returns no error for a valid project', async () => {
    const result = await check({ root: fixture('content-valid') });
    expect([result.errors, result.site, result.agents > 0]).toEqual([0, true, true]);
  });
});

describe('build(), verify() and diff() in-process', () => {
  it('builds, tells its events to the sink and prints nothing; verify() and diff() read the result', async () => {
    const root = await copyProject(fixture('content-valid'));
    const events: BuildEvent[] = [];
    const written = vi.spyOn(process.stdout, 'write');
    const result = await build({
      root,
      env: { ARDSITE_SIGNING_KEY: TEST_KEY_ES256, SOURCE_DATE_EPOCH: '1764000000' },
      onEvent: (event) => events.push(event),
    });
    expect(written).not.toHaveBeenCalled();
    written.mockRestore();
    expect(result.outDir).toBe(path.join(root, 'dist'));
    expect(result.agents).toBeGreaterThan(0);
    expect(result.checksPassed).toBeGreaterThan(0);
    const key = events.find((e) => e.type === 'key');
    expect(key).toMatchObject({
      type: 'key',
      source: 'ARDSITE_SIGNING_KEY',
      created: false,
      ephemeral: false,
    });
    expect(result.key).toEqual(key);
    // The key's material is in no event.
    const privateD = (JSON.parse(TEST_KEY_ES256) as { d: string }).d;
    expect(JSON.stringify(events)).not.toContain(privateD);

    const report = await verify({ folder: result.outDir });
    expect([report.failed, report.entries]).toEqual([0, result.entries]);
    const changes = await diff({ before: result.outDir, after: result.outDir });
    expect(changes.length).toBe(result.entries);
    expect(changes.every((c) => c.status === 'unchanged' && !c.gainedAccess)).toBe(true);
  }, 240_000);

  it('throws an ArdsiteError with the diagnostics for broken content, and writes nothing', async () => {
    const root = await copyProject(fixture('content-broken'));
    const error = await build({ root, env: { ARDSITE_DEV_KEY: '1' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArdsiteError);
    expect((error as ArdsiteError).diagnostics.length).toBeGreaterThan(0);
  }, 120_000);
});
