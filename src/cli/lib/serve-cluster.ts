/**
 * `ardsite serve --workers N`: N server processes on one port (node:cluster; the primary accepts the
 * connections and hands them to the workers in turn). Each worker loads and verifies the index and runs
 * the one server of src/core/registry/server.ts; the index is read-only, so every worker gives the same
 * answers. What each worker keeps for itself: the per-client rate limit (a client may make up to N times
 * `registry.rateLimit` requests a second across the workers) and the answer cache (a repeat is a hit only
 * in a worker that answered it before).
 *
 * The pageToken secret (HMAC key of the page tokens, src/core/registry/page-token.ts) is handed to each
 * worker over the cluster's IPC channel, never through a file, an argument or a log line, so that a page
 * token made by one worker is accepted by every other. A worker that dies after it listened is replaced
 * (a new process, the same secret); a worker that dies before it ever listened stops them all (the index
 * cannot be loaded: exit 1). SIGTERM or SIGINT to the primary closes every worker's server and ends
 * every process; a worker whose primary is gone ends itself.
 */
import cluster, { type Worker } from 'node:cluster';

/** The message that carries the secret from the primary to a worker, which asks for it once it listens for it. */
interface SecretMessage {
  ardsiteSecret: string;
}
/** A worker's request for the secret. */
const SECRET_REQUEST = 'ardsite-secret?';

const isSecretMessage = (message: unknown): message is SecretMessage =>
  typeof message === 'object' &&
  message !== null &&
  typeof (message as Record<string, unknown>).ardsiteSecret === 'string';

/** How long the workers have to close their servers after SIGTERM before they are killed: 10 s. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** True in a worker process of {@link runServeCluster}. */
export function isServeWorker(): boolean {
  return cluster.isWorker;
}

/**
 * In a worker: asks the primary for the secret over IPC and resolves with it. The worker ends itself
 * when the primary is gone meanwhile.
 */
export function secretFromPrimary(): Promise<Uint8Array> {
  return new Promise((resolve) => {
    const gone = () => process.exit(1);
    const take = (message: unknown) => {
      if (!isSecretMessage(message)) return;
      process.off('message', take);
      process.off('disconnect', gone);
      resolve(new Uint8Array(Buffer.from(message.ardsiteSecret, 'base64')));
    };
    process.on('message', take);
    process.once('disconnect', gone);
    process.send!(SECRET_REQUEST);
  });
}

/**
 * In a worker whose server listens: ends the process when `close` has closed the server, on SIGTERM or
 * SIGINT, or when the IPC channel to the primary closes (the primary is gone).
 */
export function endWorkerWith(close: () => Promise<void>): void {
  let ending = false;
  const end = () => {
    if (ending) return;
    ending = true;
    void close()
      .catch(() => {})
      .then(() => process.exit(0));
  };
  process.on('SIGTERM', end);
  process.on('SIGINT', end);
  process.on('disconnect', end);
}

/** Options of {@link runServeCluster}. */
export interface ServeClusterOptions {
  /** Number of worker processes, at least 2. */
  workers: number;
  /** The pageToken secret every worker is given. */
  secret: Uint8Array;
  log: (line: string) => void;
}

/** A running cluster, seen from the primary. */
export interface ServeCluster {
  /** The origin the workers listen on (`http://host:port`), once the first one listens. */
  origin: string;
  /** The process ids of the workers now running. */
  pids(): number[];
  /** Resolves with the exit code of the whole server: 0 after a shutdown, 1 when a worker could not start. */
  done: Promise<number>;
}

/**
 * In the primary: forks `options.workers` workers running this same command (process.argv, with its
 * execArgv), gives each the secret, replaces a worker that dies after listening, and ends them all on
 * SIGTERM/SIGINT. Resolves once every worker listens.
 * @throws Error when a worker ends before it listens (its own stderr says why).
 */
export async function runServeCluster(options: ServeClusterOptions): Promise<ServeCluster> {
  const secret = Buffer.from(options.secret).toString('base64');
  const listening = new Set<number>();
  let stopping = false;
  let exitCodeAfterStop = 0;
  let origin = '';
  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => (finish = resolve));
  let started: (error?: Error) => void = () => {};
  const allListening = new Promise<void>((resolve, reject) => {
    started = (error) => (error ? reject(error) : resolve());
  });

  const fork = (replacement = false): Worker => {
    const worker = cluster.fork();
    worker.on('message', (message: unknown) => {
      if (message === SECRET_REQUEST) worker.send({ ardsiteSecret: secret } satisfies SecretMessage);
    });
    worker.on('listening', (address) => {
      listening.add(worker.id);
      const host = address.address ?? '127.0.0.1';
      origin ||= `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
      if (listening.size >= options.workers) started();
      if (replacement) options.log(`registry: worker ${worker.process.pid} listens`);
    });
    return worker;
  };

  const stop = () => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    if (workers.length === 0) finish(0);
    for (const worker of workers) worker.process.kill('SIGTERM');
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
    }, SHUTDOWN_GRACE_MS).unref();
  };

  cluster.on('exit', (worker, code, signal) => {
    const had = listening.delete(worker.id);
    const left = Object.keys(cluster.workers ?? {}).length;
    if (stopping) {
      if (left === 0) finish(exitCodeAfterStop);
      return;
    }
    if (!had) {
      // It never listened: the index or the port cannot be used; the others would fail alike.
      exitCodeAfterStop = 1;
      started(new Error(`a server worker ended before it listened (${signal ?? `exit code ${code}`})`));
      stop();
      return;
    }
    const next = fork(true);
    options.log(
      `registry: worker ${worker.process.pid} ended (${signal ?? `exit code ${code}`}); started worker ${next.process.pid}`,
    );
  });

  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  for (let i = 0; i < options.workers; i++) fork();
  await allListening;
  return {
    origin,
    pids: () =>
      Object.values(cluster.workers ?? {})
        .map((w) => w?.process.pid)
        .filter((pid): pid is number => pid !== undefined),
    done,
  };
}
