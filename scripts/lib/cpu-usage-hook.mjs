/**
 * Loaded with `node --import` into a process the bench times (./bench-verify.ts): when
 * `ARDSITE_BENCH_CPU_FILE` names a file, the process's CPU time (`process.resourceUsage()`: user and
 * system, every thread, milliseconds) and peak RSS (KiB) are written there as JSON when it exits.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.ARDSITE_BENCH_CPU_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({
        userMs: usage.userCPUTime / 1000,
        systemMs: usage.systemCPUTime / 1000,
        maxRssKiB: usage.maxRSS,
      }),
    );
  });
}
