/**
 * The signer pool (src/core/trust/signer-pool.ts): worker threads give exactly the bytes the key gives in this
 * thread, so a build signed by the pool writes the same files as one signed in-thread.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareBuild } from '../../../src/core/build/prepare.js';
import { createSigningKey } from '../../../src/core/trust/keys.js';
import { parsePrivateKey } from '../../../src/core/trust/key-checks.js';
import {
  createSignerPool,
  startSignerThreads,
  type SignerPool,
} from '../../../src/core/trust/signer-pool.js';
import { sealAgentCard } from '../../../src/core/trust/card-signature.js';
import { compiledWorker } from '../../../src/core/util/compiled-worker.js';

const VECTORS = path.resolve(import.meta.dirname, '../../vectors');
const keyOf = (file: string) =>
  createSigningKey(
    parsePrivateKey(readFileSync(path.join(VECTORS, file), 'utf8'), file).privateJwk,
    'agents.example.com',
  );
const pools: SignerPool[] = [];
afterAll(async () => Promise.all(pools.map((p) => p.close())));

describe('createSignerPool', () => {
  for (const file of ['test-key-es256.jwk.json', 'test-key-ed25519.jwk.json']) {
    it(`signs like the key itself (${file}), in order, across batches and workers`, async () => {
      const key = keyOf(file);
      const pool = createSignerPool(key, { workers: 2, batchSize: 3 });
      pools.push(pool);
      expect([pool.alg, pool.kid]).toEqual([key.alg, key.kid]);
      const inputs = Array.from({ length: 50 }, (_, i) => new TextEncoder().encode(`header.payload-${i}`));
      const signatures = await Promise.all(inputs.map((input) => pool.sign(input)));
      signatures.forEach((signature, i) => {
        expect(Buffer.from(signature).equals(Buffer.from(key.sign(inputs[i]!))), `input ${i}`).toBe(true);
      });
      expect(pool.busyMs).toBeGreaterThan(0);
      // Each thread's own CPU, loading its code included (Linux: /proc/thread-self/stat).
      if (process.platform === 'linux') expect(pool.cpuMs).toBeGreaterThan(0);
    });
  }

  it('the bundled worker (no tsx in the thread) signs like the key itself, and seals the same bytes', async () => {
    const bundle = await compiledWorker('signer');
    expect(bundle.file, 'reason' in bundle ? bundle.reason : undefined).toMatch(
      /signer-worker-[0-9a-f]{16}\.mjs$/,
    );
    for (const file of ['test-key-es256.jwk.json', 'test-key-ed25519.jwk.json']) {
      const key = keyOf(file);
      const pool = createSignerPool(key, { workers: 2, batchSize: 3, workerFile: bundle.file! });
      pools.push(pool);
      const inputs = Array.from({ length: 20 }, (_, i) => new TextEncoder().encode(`header.payload-${i}`));
      const signatures = await Promise.all(inputs.map((input) => pool.sign(input)));
      signatures.forEach((signature, i) => {
        expect(Buffer.from(signature).equals(Buffer.from(key.sign(inputs[i]!))), `${file} ${i}`).toBe(true);
      });
      const card = { name: 'Agent', description: 'ünïcödé', version: '1.0.0', skills: [] };
      const [sealed, here] = await Promise.all([
        pool.sealCard(card, 'agents.example.com'),
        sealAgentCard(card, key, 'agents.example.com'),
      ]);
      expect(Buffer.from(sealed.bytes).equals(Buffer.from(here.bytes)), file).toBe(true);
    }
  });

  it('seals cards as sealAgentCard does in this thread (same bytes and digest), mixed with signatures', async () => {
    const key = keyOf('test-key-es256.jwk.json');
    const pool = createSignerPool(key, { workers: 2, batchSize: 4 });
    pools.push(pool);
    const cards = Array.from({ length: 12 }, (_, i) => ({
      name: `Agent ${i}`,
      description: 'ünïcödé, "quotes" and a \\ backslash',
      version: '1.0.0',
      skills: [{ id: `s${i}`, name: 'Skill', tags: ['a', 'b'], description: 'does things' }],
      capabilities: { streaming: false },
    }));
    const input = new TextEncoder().encode('h.p');
    const [sealed, signature] = await Promise.all([
      Promise.all(cards.map((card) => pool.sealCard(card, 'agents.example.com'))),
      pool.sign(input),
    ]);
    for (const [i, card] of cards.entries()) {
      const here = await sealAgentCard(card, key, 'agents.example.com');
      expect(Buffer.from(sealed[i]!.bytes).equals(Buffer.from(here.bytes)), `card ${i}`).toBe(true);
      expect(sealed[i]!.digest).toBe(here.digest);
    }
    expect(Buffer.from(signature).equals(Buffer.from(key.sign(input)))).toBe(true);
  });

  it('starts its threads before the key is known, and signs once given it (once)', async () => {
    const key = keyOf('test-key-es256.jwk.json');
    const threads = startSignerThreads({ workers: 1 });
    // The key comes while the threads still load their code: they sign once they have both.
    const pool = threads.withKey(key);
    pools.push(pool);
    expect(() => threads.withKey(key)).toThrow(/have a key already/);
    const input = new TextEncoder().encode('late.key');
    expect(Buffer.from(await pool.sign(input)).equals(Buffer.from(key.sign(input)))).toBe(true);
    // Threads never given a key close as well.
    await startSignerThreads({ workers: 1 }).close();
  });

  it('refuses requests once closed', async () => {
    const pool = createSignerPool(keyOf('test-key-es256.jwk.json'), { workers: 1 });
    await pool.close();
    await expect(pool.sign(new Uint8Array([1]))).rejects.toMatchObject({ code: 'BUILD_SIGNING_FAILED' });
  });

  it('refuses a signing input that is not bytes, as the key does, and keeps working', async () => {
    const key = keyOf('test-key-es256.jwk.json');
    const pool = createSignerPool(key, { workers: 1 });
    pools.push(pool);
    await expect(pool.sign('not bytes' as never)).rejects.toMatchObject({ code: 'JWS_INVALID' });
    const input = new TextEncoder().encode('a.b');
    expect(Buffer.from(await pool.sign(input)).equals(Buffer.from(key.sign(input)))).toBe(true);
  });

  it('refuses a key that was not made by createSigningKey', () => {
    const key = keyOf('test-key-es256.jwk.json');
    expect(() => createSignerPool({ ...key }, { workers: 1 })).toThrow(/not made by createSigningKey/);
  });
});

describe('a build signed in worker threads', () => {
  it('computes the same bytes for every artifact as a build signed in this thread', async () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const env = {
      ARDSITE_SIGNING_KEY: readFileSync(path.join(VECTORS, 'test-key-es256.jwk.json'), 'utf8'),
      SOURCE_DATE_EPOCH: '1764000000',
    };
    const inThread = await prepareBuild({ root, env, signingWorkers: 0 });
    const pooled = await prepareBuild({ root, env, signingWorkers: 2 });
    const bytes = (site: typeof inThread.site) =>
      Object.fromEntries([...site.artifacts].map(([p, a]) => [p, Buffer.from(a.bytes).toString('base64')]));
    expect(Object.keys(bytes(pooled.site)).length).toBeGreaterThan(5);
    expect(bytes(pooled.site)).toEqual(bytes(inThread.site));
  });
});
