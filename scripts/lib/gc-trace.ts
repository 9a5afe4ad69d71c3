/**
 * The main thread's garbage collections of one traced process, by phase: what `node --trace-gc` printed
 * (V8's one line per collection: `[pid:isolate:…]  <ms> ms: Scavenge|Mark-Compact … MB, <pause> / <ms> ms …`)
 * cut at the page marks of ./page-marks-hook.mjs (`ardsite-page-mark <count> <ms>`).
 */

/** Collections of one phase on the main thread (the first isolate that traces: worker threads come later). */
export interface GcPhase {
  /** From which page mark (`0` before the first one), in pages written. */
  fromPage: number;
  /** Young-generation collections, and their main-thread pause in milliseconds. */
  scavenges: number;
  scavengeMs: number;
  /** Full collections (mark-compact), and their main-thread pause in milliseconds (their concurrent marking not counted). */
  majors: number;
  majorMs: number;
}

const GC_LINE =
  /^\[\d+:(0x[0-9a-f]+)(?::\d+)?\]\s+([\d.]+) ms: (Scavenge|Mark-Compact)\b[^\n]*?, ([\d.]+) \/ [\d.]+ ms/;
const MARK_LINE = /^ardsite-page-mark (\d+) ([\d.]+)$/;

/**
 * The phases of `log` (a process's stderr and stdout with `--trace-gc` lines and page marks): one before the
 * first mark, one from each mark on. Lines of other isolates (worker threads) and other lines are left out.
 * Returns no phases for a log without a collection of the main thread.
 */
export function gcPhases(log: string): GcPhase[] {
  const lines = log.split('\n');
  const marks: Array<{ page: number; ms: number }> = [];
  for (const line of lines) {
    const m = MARK_LINE.exec(line.trim());
    if (m) marks.push({ page: Number(m[1]), ms: Number(m[2]) });
  }
  const phases: GcPhase[] = [0, ...marks.map((m) => m.page)].map((fromPage) => ({
    fromPage,
    scavenges: 0,
    scavengeMs: 0,
    majors: 0,
    majorMs: 0,
  }));
  let main: string | undefined;
  for (const line of lines) {
    const m = GC_LINE.exec(line);
    if (!m) continue;
    main ??= m[1];
    if (m[1] !== main) continue;
    const at = Number(m[2]);
    const phase = phases[marks.filter((mark) => mark.ms <= at).length]!;
    if (m[3] === 'Scavenge') {
      phase.scavenges++;
      phase.scavengeMs += Number(m[4]);
    } else {
      phase.majors++;
      phase.majorMs += Number(m[4]);
    }
  }
  return main === undefined ? [] : phases;
}
