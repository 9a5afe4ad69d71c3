/**
 * `npm run bench`: what a build costs, against a bare Astro floor measured in the same run.
 *
 *   npm run bench -- --agents 1000 [--runs 3]   build a synthetic publisher and the floor, side by side
 *     (its resources carry stored specs: the phases `specs/resolution` and `permissions` are what resolving
 *     operations and deriving permission sets cost; `--without-specs` builds the same publisher without)
 *   npm run bench -- --verify [--agents 1000] [--runs 5] [--threads N]   time `npm run verify` over the
 *     built folder (`--threads` is passed on: helper threads; default as `npm run verify` decides):
 *     elapsed (its `elapsedMs`, no process start), CPU time of the process, load average
 *     (scripts/lib/bench-verify.ts). `--dist <folder>` verifies a folder built before (`--keep` keeps
 *     one) instead of building; `--baseline <project folder>` alternates its runs with another tree's
 *     verifier (a worktree of the commit before a change) over the same folder
 *   npm run bench -- --verify --golden <dir> [--agents N | --dist <folder>]   writes the reports of the
 *     site and of broken copies of it into <dir> (scripts/lib/verify-golden.ts; run again with another
 *     size to add its cases)
 *   npm run bench -- --verify --compare <dir> [--threads N]   verifies the sites of <dir> again (default
 *     threads, --threads 0 and --threads 1; only --threads N when given) and says which reports differ
 *     from the golden ones (exit 1 then)
 *
 *   npm run bench -- --agents 1000 --floor-concurrency 4   the floor renders 4 pages at a time, as ardsite
 *     does (astro.config.mjs); by default the floor keeps Astro's default of one
 *   npm run bench -- --against without-specs [--runs 5]   the same publisher with and without stored
 *     specs, side by side: what resolving operations and deriving permission sets cost
 *
 * Method: each side runs as its users run it, without tsx: ardsite as the compiled package
 * (`node lib/cli/main.js build`, compiled first when missing or stale), the floor bundled by esbuild
 * (./lib/bench-commands.ts). Each build runs in a fresh child process (so peak memory is its own), into an output
 * folder that does not exist yet, and earlier outputs are kept while the disk holds them (neither pays
 * for a removal, nor for the kernel's work after one: ./lib/bench-outputs.ts); the two builds of a pair
 * alternate, and so does which of them goes first (pair 1 baseline first, pair 2 ardsite
 * first, …) so that neither always meets a warmer disk cache. The ratio is the median of the per-pair
 * ratios, printed with their spread (min–max); the 1-minute load average is sampled every second
 * during each build and a warning names the builds during which it passed 1.5; as a build on both cores
 * raises it to about 2 by itself, the CPU time other processes used (and the hypervisor stole) during
 * each build is printed too, from /proc (scripts/lib/cpu-share.ts), and a second warning names the
 * builds during which it passed a tenth of a core (another job on the machine). Prints wall times, peak memory, bytes written, bytes per manifest entry, the size of
 * ard.json and ardsite's phase times; writes the figures as JSON to bench-results/. Beside the wall
 * times, the CPU time of each build (every thread and child process, which other jobs cannot steal): the
 * CPU ratio of each pair, ardsite's own CPU per agent (its CPU less the floor's) and its CPU by thread
 * (scripts/lib/cpu-figures.ts).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { writeSyntheticPublisher } from '../bench/synthetic.js';
import { benchVerify, describe, median, pairedRatios } from './lib/bench-verify.js';
import { childrenCpuMs, cpuSnapshot, othersShare, type OthersShare } from './lib/cpu-share.js';
import { cpuLines, cpuSummary, type BuildCpu } from './lib/cpu-figures.js';
import { parseCommandLine } from '../src/cli/lib/args.js';
import { compareGolden, writeGolden } from './lib/verify-golden.js';
import { bundledFloor, compiledCli } from './lib/bench-commands.js';
import { BenchOutputs, folderUsage } from './lib/bench-outputs.js';

const run = promisify(execFile);
const appRoot = path.resolve(import.meta.dirname, '..');

const USAGE =
  'usage: npm run bench -- [--agents N] [--runs N] [--against floor|without-specs] [--without-specs] [--floor-concurrency N] [--verify [--threads N] [--dist <folder>] [--baseline <project folder>] [--golden <dir> | --compare <dir>]] [--keep]';
const { values } = parseCommandLine(
  {
    options: {
      agents: { type: 'string', default: '1000' },
      runs: { type: 'string', default: '5' },
      against: { type: 'string', default: 'floor' },
      verify: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      threads: { type: 'string' },
      dist: { type: 'string' },
      baseline: { type: 'string' },
      golden: { type: 'string' },
      compare: { type: 'string' },
      'without-specs': { type: 'boolean', default: false },
      'floor-concurrency': { type: 'string', default: '1' },
    },
  },
  USAGE,
);
const agents = Number(values.agents);
const floorConcurrency = Number(values['floor-concurrency']);
const runs = Number(values.runs);
const against = values.against;
if (
  !Number.isInteger(agents) ||
  agents < 1 ||
  !Number.isInteger(runs) ||
  runs < 1 ||
  !Number.isInteger(floorConcurrency) ||
  floorConcurrency < 1 ||
  (against !== 'floor' && against !== 'without-specs')
) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

interface ChildReport extends BuildCpu {
  wallMs: number;
  peakRssBytes: number;
  /** The highest 1-minute load average seen while the child ran (os.loadavg, sampled each second). */
  maxLoadAverage: number;
  /** What other processes and other guests took meanwhile (scripts/lib/cpu-share.ts), where /proc tells. */
  others?: OthersShare;
  phasesMs?: Record<string, number>;
  manifestBytes?: number;
  entries?: number;
}

/** Above this 1-minute load average during a build, another job shared the machine. */
const QUIET_LOAD_AVERAGE = 1.5;
/**
 * Above this many cores' worth of CPU used by other processes (or stolen by other guests) on average
 * during a build, another job shared the machine. The load average alone cannot tell: a build keeping both
 * cores busy raises it to about 2 by itself.
 */
const QUIET_OTHERS_CORES = 0.1;

/** Runs `node <script> …args` (./lib/bench-commands.ts), timing it from outside; the child writes its report. */
async function timedChild(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<ChildReport> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'ardsite-bench-report-'));
  const report = path.join(folder, 'report.json');
  let maxLoadAverage = os.loadavg()[0]!;
  const sampler = setInterval(() => (maxLoadAverage = Math.max(maxLoadAverage, os.loadavg()[0]!)), 1000);
  const before = cpuSnapshot();
  const started = performance.now();
  try {
    await run(process.execPath, [script, ...args, '--report', report], {
      cwd: appRoot,
      env: { ...process.env, ...env },
      maxBuffer: 256 * 1024 * 1024,
    });
    const wallMs = performance.now() - started;
    const after = cpuSnapshot();
    const others = othersShare(before, after);
    const cpuMs = childrenCpuMs(before, after);
    const text = await readFile(report, 'utf8');
    const inner = JSON.parse(text) as Omit<ChildReport, 'wallMs' | 'maxLoadAverage'>;
    return {
      ...inner,
      wallMs,
      maxLoadAverage,
      ...(others ? { others } : {}),
      ...(cpuMs !== undefined ? { cpuMs } : {}),
    };
  } finally {
    // Also when the child failed: the report's folder is this run's alone.
    clearInterval(sampler);
    await rm(folder, { recursive: true, force: true });
  }
}

const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;

/** Cores' worth of CPU others used or stole during a child's run (0 where /proc could not tell). */
const othersCores = (r: ChildReport) => (r.others ? r.others.othersCores + r.others.stealCores : 0);

/** `0.02 cores (steal 0.00)`, or `?` where /proc could not tell. */
const othersText = (r: ChildReport) =>
  r.others ? `${r.others.othersCores.toFixed(2)} cores (steal ${r.others.stealCores.toFixed(2)})` : '?';

/** Where the figures go: `bench-results/<kind>-<count>.json` (`count`: the agents built, or the entries verified). */
async function writeFigures(
  kind: string,
  results: Record<string, unknown>,
  count: number = agents,
): Promise<void> {
  const outDir = path.join(appRoot, 'bench-results');
  await mkdir(outDir, { recursive: true });
  const file = path.join(outDir, `${kind}-${count}.json`);
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`figures written to ${path.relative(process.cwd(), file)}\n`);
}

/** The synthetic publisher's origin (bench/synthetic.ts). */
const ORIGIN = 'https://bench.example.com';
const env = { CI: '1', ARDSITE_DEV_KEY: '1', SOURCE_DATE_EPOCH: '1764000000' };
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${mib(os.totalmem())}, Node ${process.version}`;
const log = (line: string) => process.stdout.write(`${line}\n`);

/** Writes the synthetic publisher of `--agents` into `<work>/publisher`; returns the project folder. */
async function writePublisher(work: string): Promise<string> {
  const project = path.join(work, 'publisher');
  const summary = await writeSyntheticPublisher(project, { agents, specs: !values['without-specs'] });
  await run('git', ['init', '-q'], { cwd: project });
  log(
    `synthetic publisher: ${summary.agents} agents, ${summary.resources} resources, ${summary.operations} operations`,
  );
  return project;
}

/**
 * Runs `task` in a fresh work folder in the system temp folder, then removes the folder, also when `task`
 * failed (a failed build would otherwise leave its synthetic publisher behind); `--keep` keeps it and
 * says where.
 */
async function inWorkFolder(task: (work: string) => Promise<void>): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'ardsite-bench-'));
  try {
    await task(work);
  } finally {
    if (values.keep) log(`kept ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
}

/**
 * `--verify`: compares with golden reports (`--compare`), or builds the site (unless `--dist` names a
 * built one) and writes golden reports (`--golden`) or times `npm run verify` over it (`--baseline`:
 * alternately with another tree's verifier).
 */
async function verifyMain(): Promise<void> {
  log(`machine: ${machine}`);
  if (values.compare !== undefined) {
    const settings = values.threads === undefined ? [undefined, 0, 1] : [Number(values.threads)];
    const differences = await compareGolden(path.resolve(values.compare), appRoot, settings, log);
    log(
      differences.length === 0
        ? 'every report is the same as the golden one'
        : `REPORTS DIFFER:\n${differences.join('\n')}`,
    );
    process.exitCode = differences.length === 0 ? 0 : 1;
    return;
  }
  await inWorkFolder(verifyIn);
}

/** `--verify` in the work folder `work`: builds the site there unless `--dist` names one. */
async function verifyIn(work: string): Promise<void> {
  let folder = values.dist === undefined ? undefined : path.resolve(values.dist);
  if (folder === undefined) {
    const project = await writePublisher(work);
    log(`building the site to verify (npm run build, ${agents} agents)…`);
    await timedChild(await compiledCli(appRoot, log), ['build', '--root', project], env);
    folder = path.join(project, 'dist');
  }
  if (values.golden !== undefined) {
    const dir = path.resolve(values.golden);
    const entries = values.dist === undefined ? agents : undefined;
    await writeGolden(dir, appRoot, ORIGIN, { folder, ...(entries ? { entries } : {}) }, log);
    log(`golden reports written to ${dir}`);
  } else {
    const baselineRoot = values.baseline === undefined ? undefined : path.resolve(values.baseline);
    const timed = await benchVerify({
      appRoot,
      ...(baselineRoot ? { baselineRoot } : {}),
      folder,
      origin: ORIGIN,
      runs,
      ...(values.threads === undefined ? {} : { threads: values.threads }),
      log,
    });
    if (timed.baseline) log(describe(`baseline (${baselineRoot})`, timed.baseline));
    log(describe('this tree', timed.ours));
    const pairRatios = timed.baseline ? pairedRatios(timed.ours, timed.baseline) : undefined;
    if (pairRatios) {
      log(
        `elapsed, this tree / baseline, per alternated pair: median ${pairRatios.median.toFixed(3)} (${pairRatios.min.toFixed(3)}–${pairRatios.max.toFixed(3)}) over ${pairRatios.pairs} pairs`,
      );
    }
    await writeFigures(
      'verify',
      {
        agents,
        runs,
        machine,
        date: new Date().toISOString(),
        folder,
        threads: values.threads ?? 'default',
        verify: timed.ours,
        ...(timed.baseline ? { baselineRoot, baseline: timed.baseline, pairRatios } : {}),
      },
      timed.ours.runs[0]?.entries ?? agents,
    );
  }
  if (values.keep || values.dist !== undefined) log(`verified folder: ${folder}`);
}

async function main(): Promise<void> {
  if (values.verify) return verifyMain();
  await inWorkFolder(benchBuilds);
}

/** The build benchmark in the work folder `work`: the synthetic publisher and its baseline, in pairs. */
async function benchBuilds(work: string): Promise<void> {
  const project = await writePublisher(work);
  log(`machine: ${machine}`);
  const results: Record<string, unknown> = { agents, runs, machine, date: new Date().toISOString() };
  const cli = await compiledCli(appRoot, log);
  // Every build writes a folder of its own, and earlier outputs are kept while the disk holds them: a
  // removal just before a build made that build pay for it (./lib/bench-outputs.ts).
  const outputs = new BenchOutputs(path.join(work, 'outputs'), { log });
  let ardsiteOut = '';
  {
    // The baseline of each pair: the bare-Astro floor, or the same publisher without stored specs.
    const baselineName = against === 'floor' ? 'floor' : 'no-specs';
    let baselineOut = '';
    let buildBaseline: () => Promise<ChildReport>;
    if (against === 'floor') {
      const floor = await bundledFloor(appRoot);
      buildBaseline = async () => {
        baselineOut = await outputs.fresh('floor');
        const report = await timedChild(floor, ['--agents', String(agents), '--out', baselineOut], {
          ...env,
          FLOOR_CONCURRENCY: String(floorConcurrency),
        });
        await outputs.written(baselineOut);
        return report;
      };
    } else {
      const plain = path.join(work, 'publisher-no-specs');
      await writeSyntheticPublisher(plain, { agents, specs: false });
      await run('git', ['init', '-q'], { cwd: plain });
      buildBaseline = async () => {
        baselineOut = await outputs.fresh('no-specs');
        const report = await timedChild(cli, ['build', '--root', plain, '--out', baselineOut], env);
        await outputs.written(baselineOut);
        return report;
      };
    }
    const buildOurs = async () => {
      ardsiteOut = await outputs.fresh('ardsite');
      const report = await timedChild(cli, ['build', '--root', project, '--out', ardsiteOut], env);
      await outputs.written(ardsiteOut);
      return report;
    };
    const baseline: ChildReport[] = [];
    const ours: ChildReport[] = [];
    for (let i = 0; i < runs; i++) {
      // Alternate which build of the pair goes first.
      if (i % 2 === 0) {
        baseline.push(await buildBaseline());
        ours.push(await buildOurs());
      } else {
        ours.push(await buildOurs());
        baseline.push(await buildBaseline());
      }
      const [b, o] = [baseline[i]!, ours[i]!];
      const cpu = (r: ChildReport) => (r.cpuMs === undefined ? '?' : `${(r.cpuMs / 1000).toFixed(1)} s`);
      process.stdout.write(
        `pair ${i + 1}${i % 2 === 0 ? '' : ' (ardsite first)'}: ${baselineName} ${(b.wallMs / 1000).toFixed(1)} s (CPU ${cpu(b)}), ardsite ${(o.wallMs / 1000).toFixed(1)} s (CPU ${cpu(o)}), ratio ${(o.wallMs / b.wallMs).toFixed(2)}; load average up to ${Math.max(b.maxLoadAverage, o.maxLoadAverage).toFixed(2)}; others used ${othersText(b)} and ${othersText(o)}\n`,
      );
    }
    const ratios = ours.map((o, i) => o.wallMs / baseline[i]!.wallMs);
    const busy = ours
      .map((o, i) => ({ i, load: Math.max(o.maxLoadAverage, baseline[i]!.maxLoadAverage) }))
      .filter((p) => p.load > QUIET_LOAD_AVERAGE);
    const shared = ours
      .map((o, i) => ({ i, cores: Math.max(othersCores(o), othersCores(baseline[i]!)) }))
      .filter((p) => p.cores > QUIET_OTHERS_CORES);
    const baselineSize = await folderUsage(baselineOut);
    const ourSize = await folderUsage(ardsiteOut);
    const baselineMs = median(baseline.map((r) => r.wallMs));
    const ourMs = median(ours.map((r) => r.wallMs));
    const ratio = median(ratios);
    const last = ours[ours.length - 1]!;
    const cpu = cpuSummary(ours, baseline, agents);
    const manifestBytes = last.manifestBytes ?? 0;
    const lines = [
      `${baselineName} wall ${(baselineMs / 1000).toFixed(2)} s (median)  peak ${mib(Math.max(...baseline.map((r) => r.peakRssBytes)))}  written ${mib(baselineSize.bytes)} in ${baselineSize.files} files`,
      `ardsite wall ${(ourMs / 1000).toFixed(2)} s (median)  peak ${mib(Math.max(...ours.map((r) => r.peakRssBytes)))}  written ${mib(ourSize.bytes)} in ${ourSize.files} files`,
      `ratio ${ratio.toFixed(2)} (median of ${runs} per-pair ratios; spread ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
      ...cpuLines(cpu, baselineName),
      `ard.json ${manifestBytes} bytes, ${(manifestBytes / (last.entries ?? agents)).toFixed(0)} bytes per entry`,
      `ardsite phases (ms, last run): ${Object.entries(last.phasesMs ?? {})
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(', ')}`,
    ];
    if (busy.length > 0)
      lines.push(
        `WARNING: the 1-minute load average passed ${QUIET_LOAD_AVERAGE} during pair${busy.length === 1 ? '' : 's'} ${busy.map((p) => `${p.i + 1} (${p.load.toFixed(2)})`).join(', ')} (a build on both cores raises it to about 2 by itself: see the CPU others used)`,
      );
    if (shared.length > 0)
      lines.push(
        `WARNING: other processes or guests used over ${QUIET_OTHERS_CORES} of a core during pair${shared.length === 1 ? '' : 's'} ${shared.map((p) => `${p.i + 1} (${p.cores.toFixed(2)})`).join(', ')}: another job shared the machine; compare only figures of one run`,
      );
    process.stdout.write(`${lines.join('\n')}\n`);
    Object.assign(results, {
      against,
      baseline: { wallMs: baselineMs, runs: baseline, bytes: baselineSize.bytes, files: baselineSize.files },
      ardsite: {
        wallMs: ourMs,
        runs: ours,
        bytes: ourSize.bytes,
        files: ourSize.files,
        manifestBytes,
        bytesPerEntry: manifestBytes / agents,
      },
      ratio,
      ratios,
      spread: [Math.min(...ratios), Math.max(...ratios)],
      cpu,
      busyPairs: busy.map((p) => p.i + 1),
      sharedPairs: shared.map((p) => p.i + 1),
      floorConcurrency,
    });
  }
  await writeFigures(against === 'floor' ? 'build' : `build-${against}`, results);
}

await main();
