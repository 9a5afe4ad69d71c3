/**
 * `npx tsx scripts/profile-summary.ts <file.cpuprofile | folder>…`: where the time of each profiled
 * thread went (scripts/lib/cpu-profile.ts). Profiles of a whole build, its worker threads included
 * (src/core/util/compiled-worker.ts `bundledWorkerExecArgv`):
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/profiles --import tsx scripts/build.ts --root <project>
 *   npx tsx scripts/profile-summary.ts /tmp/profiles [--top 25]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseCommandLine } from '../src/cli/lib/args.js';
import { summariseProfile, type CpuProfile, type Ranked } from './lib/cpu-profile.js';

const USAGE = 'usage: npx tsx scripts/profile-summary.ts <file.cpuprofile | folder>… [--top N]';
const { values, positionals } = parseCommandLine(
  { options: { top: { type: 'string', default: '25' } }, allowPositionals: true },
  USAGE,
);
const root = path.resolve(import.meta.dirname, '..');
/** ardsite's sources, and its workers bundled into node_modules/.cache/ardsite. */
const isOwn = (url: string) =>
  url.includes(`${root}/src/`) ||
  url.includes(`${root}/lib/`) ||
  url.includes(`${root}/scripts/`) ||
  url.includes('/.cache/ardsite/');
const files = positionals.flatMap((p) =>
  statSync(p).isDirectory()
    ? readdirSync(p)
        .filter((f) => f.endsWith('.cpuprofile'))
        .sort()
        .map((f) => path.join(p, f))
    : [p],
);
const list = (ranked: Ranked) => ranked.map((r) => `${r.ms.toFixed(0).padStart(8)} ms  ${r.name}`);
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const s = summariseProfile(profile, isOwn, { root, top: Number(values.top) });
  process.stdout.write(
    [
      `== ${file}: ${s.sampledMs.toFixed(0)} ms sampled, ${s.idleMs.toFixed(0)} ms idle`,
      '-- self time',
      ...list(s.self),
      "-- by ardsite's function (with what it called in packages and Node)",
      ...list(s.own),
      '',
    ].join('\n'),
  );
}
