/**
 * What a signing thread's work costs per agent, in CPU: seal a card (its two canonical forms for the
 * two readings of A2A §8.4, two ES256 signatures, its one serialisation: src/core/trust/card-signature.ts
 * `sealAgentCard`) and sign one trustManifest-sized input (ARD draft §3.5), over up to 400 cards of a
 * built site, three rounds after a warm-up. The key is the TEST-ONLY ES256 key of test/vectors. To
 * compare two trees (a change and the commit before it), run it from each tree's root in turn:
 *
 *   npx tsx bench/signing-cost.ts <built dist/ folder>
 *
 * Prints the CPU of making the key (and, in trees that have it, of building @noble/curves' table as
 * the signing threads did) and the milliseconds of CPU per agent of each round.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = process.cwd();
const load = (file: string) => import(pathToFileURL(path.join(root, file)).href);
const keys = await load('src/core/trust/keys.ts');
const { parsePrivateKey } = await load('src/core/trust/key-checks.ts');
const { sealAgentCard } = await load('src/core/trust/card-signature.ts');
const dist = process.argv[2];
if (!dist) {
  process.stderr.write('usage: npx tsx bench/signing-cost.ts <built dist/ folder>\n');
  process.exit(2);
}
const cards = readdirSync(path.join(dist, 'agents'))
  .slice(0, 400)
  .map((slug) => {
    const card = JSON.parse(readFileSync(path.join(dist, 'agents', slug, 'agent-card.json'), 'utf8'));
    delete card.signatures;
    return card as Record<string, unknown>;
  });
const cpuMs = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};
let started = process.cpuUsage();
// The trees before ES256 moved to OpenSSL's k·G built noble's table in each signing thread.
if (typeof keys.precomputeSigningTables === 'function') keys.precomputeSigningTables();
const jwk = readFileSync(path.join(root, 'test/vectors/test-key-es256.jwk.json'), 'utf8');
const key = keys.createSigningKey(parsePrivateKey(jwk, 'test key').privateJwk, 'bench.example.com');
key.sign(new Uint8Array(10));
process.stdout.write(`key made (and tables built): ${cpuMs(started).toFixed(1)} ms of CPU\n`);
const manifestInput = new TextEncoder().encode('x'.repeat(900));
for (const card of cards.slice(0, 50)) await sealAgentCard(card, key, 'bench.example.com');
const rounds: string[] = [];
for (let round = 0; round < 3; round++) {
  started = process.cpuUsage();
  for (const card of cards) {
    await sealAgentCard(card, key, 'bench.example.com');
    key.sign(manifestInput);
  }
  rounds.push((cpuMs(started) / cards.length).toFixed(3));
}
process.stdout.write(`ms of CPU per agent, ${cards.length} cards, 3 rounds: ${rounds.join(' ')}\n`);
