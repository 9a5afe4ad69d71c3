/**
 * What `npm run dev` may answer (DESIGN.md §10, trust boundary): the pages, the artifacts and the files of
 * `public/` that a build would publish, never a secret of the project (`.git`, `.env`, `.ardsite`, the key
 * files the operator or publisher.yaml names), a file outside the app through Vite's `/@fs/`, or a file of
 * `public/` reached through a link the build refuses. The rules are the build's own
 * (src/core/project/project-jail.ts: {@link projectSecrets}, {@link publicPathProblem}), applied to each request
 * path before Vite sees it, whatever its query (`?raw`, `?url`, `?import`) or its spelling (percent-encoded
 * once or twice, backslashes).
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { operatorTrust, projectJail } from '../trust/operator-trust.js';
import { isSecretName, projectSecrets, publicPathProblem, type Jail } from '../project/project-jail.js';
import { isWithin } from '../util/within.js';

/** The folders and secrets one dev server judges requests by ({@link devServing}). */
export interface DevServing {
  /** The real path of the app Astro runs in (its pages, Vite's root). */
  appRoot: string;
  /** The real path of the publisher's project (its `content/`, `public/`). */
  root: string;
  /** The jail of the project (the operator's `ARDSITE_ALLOW_OUTSIDE`). */
  jail: Jail;
  /** Real paths never served: the secrets of the project and of the app. */
  secrets: string[];
}

/**
 * The serving rules for the project at `root` run by the app at `appRoot`, with the operator's `env`
 * (`ARDSITE_SIGNING_KEY_FILE`, `ARDSITE_ALLOW_OUTSIDE`) and publisher.yaml's `signing.keyFile` when known.
 */
export function devServing(
  root: string,
  appRoot: string,
  env: NodeJS.ProcessEnv = process.env,
  contentKeyFile?: string,
): DevServing {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  const [projectRoot, app] = [real(root), real(appRoot)];
  const trust = operatorTrust(projectRoot, env);
  const keyFiles = [
    ...trust.keyFiles,
    ...(contentKeyFile ? [path.resolve(projectRoot, contentKeyFile)] : []),
  ];
  return {
    appRoot: app,
    root: projectRoot,
    jail: projectJail(projectRoot, trust),
    secrets: [...new Set([...projectSecrets(projectRoot, keyFiles), ...projectSecrets(app)])],
  };
}

/** The request path decoded the way a server may decode it: percent-decoded until stable, `\` as `/`. */
function decodedPath(url: string): string | undefined {
  let p = url.split(/[?#]/)[0] ?? '';
  for (let i = 0; i < 4 && p.includes('%'); i++) {
    try {
      p = decodeURIComponent(p);
    } catch {
      return undefined;
    }
  }
  return p.replace(/\\/g, '/');
}

/**
 * Why the dev server must not answer `url` (a request target: path and query), or undefined when it may
 * pass on to the pages, the artifacts and Vite.
 */
export function devRequestProblem(url: string, serving: DevServing): string | undefined {
  const decoded = decodedPath(url);
  if (decoded === undefined) return 'its path is not valid percent-encoding';
  const segments = decoded.split('/');
  if (segments.some((s) => s === '..')) return 'its path climbs with ..';
  if (segments.some((s) => isSecretName(s))) return 'it names a secret of the project';
  // Vite reads a file system path after /@fs/, and a module id (an absolute path too) after /@id/.
  const named = /^\/@fs(\/.*)$/.exec(decoded)?.[1] ?? /^\/@id\/(\/.*)$/.exec(decoded)?.[1];
  const absolute = named !== undefined;
  const candidates = absolute
    ? [path.resolve(named)]
    : [path.join(serving.appRoot, decoded), path.join(serving.root, decoded)];
  if (absolute && !isWithin(serving.appRoot, candidates[0]!)) return 'it names a file outside the app';
  for (const candidate of candidates) {
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      continue;
    }
    if (absolute && !isWithin(serving.appRoot, real)) return 'it names a file outside the app';
    if (serving.secrets.some((s) => isWithin(s, real))) return 'it names a secret of the project';
  }
  const problem = publicPathProblem(serving.jail, decoded, serving.secrets);
  if (problem) return `${problem.file} is a link the build refuses`;
  return undefined;
}
