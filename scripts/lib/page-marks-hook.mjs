/**
 * Loaded with `node --import` into a build traced with `node --trace-gc` (scripts/gc-phases.ts): when
 * `ARDSITE_PAGE_MARKS` lists page counts (`1,1000,2000`), writes `ardsite-page-mark <count> <ms>` to stderr
 * when the build has written that many `.html` files through `fs.promises.writeFile` (as Astro writes its
 * pages), `<ms>` being milliseconds since the process started (`performance.now()`), the clock of
 * `--trace-gc`'s lines. The marks cut the trace into phases: before the first page, each route's pages.
 */
import fs from 'node:fs';

const marks = new Set(
  (process.env.ARDSITE_PAGE_MARKS ?? '')
    .split(',')
    .filter((m) => m !== '')
    .map(Number),
);
if (marks.size > 0) {
  let pages = 0;
  const writeFile = fs.promises.writeFile;
  fs.promises.writeFile = function (file, ...rest) {
    if (String(file).endsWith('.html') && marks.has(++pages))
      process.stderr.write(`ardsite-page-mark ${pages} ${performance.now().toFixed(0)}\n`);
    return writeFile.call(this, file, ...rest);
  };
}
