/**
 * Runs the consumers of a built site's cards (test/helpers/consumers.ts: the A2A v0.3.0 JSON Schema,
 * @a2a-js/sdk's v1 resolver, v0.3 translator and signature check, a whole-card JCS verifier, jose over
 * the trustManifests) and ardsite's own `verify`, and prints one verdict line per consumer: the table
 * of docs/interop.md. Usage: `npx tsx scripts/interop.ts [dist]`; exit 1 when a consumer rejects.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { siteCardVerdicts, type CardVerdicts } from '../test/helpers/consumers.js';
import { directProblems } from '../test/helpers/direct-checks.js';

const dir = path.resolve(process.argv[2] ?? 'dist');
const cards = await siteCardVerdicts(dir);

function row(name: string, pick: (v: CardVerdicts) => string | undefined): boolean {
  const judged = cards.filter((c) => pick(c) !== undefined);
  const failed = judged.filter((c) => pick(c) !== '');
  const verdict = failed.length === 0 ? 'accepts' : 'rejects';
  console.log(`${name}: ${verdict} ${judged.length - failed.length}/${judged.length} cards`);
  for (const c of failed) console.log(`  ${c.file}: ${String(pick(c)).slice(0, 300)}`);
  return failed.length === 0;
}

let ok = true;
ok = row('A2A v0.3.0 JSON Schema (AgentCard), cards offering v0.3', (c) => c.v03Schema) && ok;
ok = row('@a2a-js/sdk v0.3 translator (parseLegacyAgentCard)', (c) => c.v03Translator) && ok;
ok = row('@a2a-js/sdk v1 DefaultAgentCardResolver', (c) => c.v1Resolver) && ok;
ok = row('@a2a-js/sdk v1 DefaultAgentCardResolver, legacyCompat', (c) => c.v1ResolverCompat) && ok;
ok = row('@a2a-js/sdk verifyAgentCardSignature', (c) => c.sdkSignature) && ok;
ok = row('whole-card JCS verifier (canonicalize + jose)', (c) => c.wholeCard) && ok;
const jose = await directProblems(dir);
console.log(
  `jose + canonicalize over ard.json, digests and trustManifests: ${jose.length === 0 ? 'accepts' : 'rejects'}`,
);
for (const p of jose) console.log(`  ${p}`);
ok = jose.length === 0 && ok;
const own = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'verify', dir], {
  encoding: 'utf8',
});
const summary = own.stdout.trim().split('\n').slice(-1)[0] ?? '';
console.log(`ardsite verify (folder): exit ${String(own.status)}: ${summary}`);
ok = own.status === 0 && ok;
process.exit(ok ? 0 : 1);
