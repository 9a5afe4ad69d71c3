/**
 * `npx tsx scripts/gc-phases.ts <log>…`: the main thread's garbage collections of a traced build, by phase
 * (scripts/lib/gc-trace.ts). A 1,000-agent build, ardsite's or the floor's, with its stderr kept:
 *
 *   ARDSITE_PAGE_MARKS=1,1000,2000 node --trace-gc --import ./scripts/lib/page-marks-hook.mjs \
 *     lib/cli/main.js build --root <publisher> --out <fresh folder> > build.log 2>&1
 *   npx tsx scripts/gc-phases.ts build.log
 */
import { readFileSync } from 'node:fs';
import { parseCommandLine } from '../src/cli/lib/args.js';
import { gcPhases } from './lib/gc-trace.js';

const USAGE = 'usage: npx tsx scripts/gc-phases.ts <log>…';
const { positionals } = parseCommandLine({ options: {}, allowPositionals: true }, USAGE);
for (const file of positionals) {
  const phases = gcPhases(readFileSync(file, 'utf8'));
  const rows = phases.map(
    (p) =>
      `  from page ${String(p.fromPage).padStart(6)}: ${p.scavenges} scavenges (${p.scavengeMs.toFixed(0)} ms), ` +
      `${p.majors} major GCs (${p.majorMs.toFixed(0)} ms)`,
  );
  process.stdout.write(
    `== ${file}\n${rows.length > 0 ? rows.join('\n') : '  no collection of the main thread'}\n`,
  );
}
