import { folderReader } from '../src/core/verify/folder-reader.js';
import { verifySite } from '../src/core/verify/site.js';
const dir = process.argv[2]!;
const origin = 'https://bench.example.com';
const t0 = performance.now();
for (let i = 0; i < 6; i++) {
  const t = performance.now();
  await verifySite(folderReader(dir, origin), { origin });
  console.log(`run ${i}: start ${(t - t0).toFixed(0)} ${(performance.now() - t).toFixed(0)} ms`);
}
