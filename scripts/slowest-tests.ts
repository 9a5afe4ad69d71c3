/**
 * `npm run test:slowest [-- --top N]`: the test files that took longest in the last `npm test`, read from the
 * JSON report Vitest writes to `test-results/vitest-results.json` (vitest.config.ts). Prints one line a file,
 * slowest first: seconds, then the file relative to the repository. Exit 2 when no report exists yet.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

/** The part of Vitest's JSON report read here: each test file with its start and end (ms since the epoch). */
interface JsonReport {
  testResults: Array<{ name: string; startTime: number; endTime: number }>;
}

const { values } = parseArgs({ options: { top: { type: 'string', default: '10' } } });
const root = process.cwd();
const file = path.join(root, 'test-results', 'vitest-results.json');
const text = await readFile(file, 'utf8').catch(() => undefined);
if (text === undefined) {
  process.stderr.write(`${path.relative(root, file)} does not exist: run npm test first\n`);
  process.exit(2);
}
const report = JSON.parse(text) as JsonReport;
const rows = report.testResults
  .map((r) => ({ file: path.relative(root, r.name), seconds: (r.endTime - r.startTime) / 1000 }))
  .sort((a, b) => b.seconds - a.seconds)
  .slice(0, Number(values.top));
for (const r of rows) process.stdout.write(`${r.seconds.toFixed(1).padStart(7)} s  ${r.file}\n`);
