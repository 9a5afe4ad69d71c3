/**
 * One full garbage collection of this process's V8 heap, asked for by a long-lived server at the one
 * moment it is cheap: after start-up built its data and before it takes traffic (src/core/registry/
 * server.ts). Building a large index leaves the old generation full of garbage and the young generation
 * full of the index's newest objects; without a collection here, the first requests pay for it: their
 * scavenges copy those survivors, and the first major collection marks and sweeps under load.
 *
 * V8 exposes its collector to JavaScript only behind `--expose-gc`. This process was not started with it,
 * so the flag is set at run time (node:v8 `setFlagsFromString`), a fresh context (node:vm) is made, where
 * V8 then installs `gc`, and the flag is unset again at once, so that no later context gets the function.
 * When the process was started with `--expose-gc`, its own `gc` is used.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's collector function as `--expose-gc` installs it: a full, blocking collection when called with no argument. */
type Collect = () => void;

let collect: Collect | undefined;

/** The collector function, made once per process (see the module comment). */
function collector(): Collect | undefined {
  if (collect) return collect;
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === 'function') return (collect = own as Collect);
  setFlagsFromString('--expose-gc');
  try {
    const made = runInNewContext('gc') as unknown;
    if (typeof made === 'function') collect = made as Collect;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  return collect;
}

/**
 * Runs one full, blocking garbage collection of the V8 heap (both generations) and returns the time it
 * took in milliseconds, or `undefined` when this V8 gave no collector function (the collection did not
 * run). Blocks the event loop for that time: call it only before taking work.
 */
export function collectFully(): number | undefined {
  const run = collector();
  if (!run) return undefined;
  const started = performance.now();
  run();
  return performance.now() - started;
}
