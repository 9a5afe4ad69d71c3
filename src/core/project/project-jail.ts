/**
 * The project is a jail (DESIGN.md §9): every file a build reads resolves, after symbolic links
 * (`realpath`), inside the publisher's project folder, or inside a folder the publisher listed in
 * `allowOutside` (publisher.yaml) on purpose. A contributor's pull request built by a CI that holds the
 * signing key can then neither read nor publish `/etc/passwd`, `~/.ssh`, or the CI's other secrets.
 *
 * Also here: the folders whose files are copied into the site (`public/` and every folder a symbolic
 * link inside it reaches), so the build can refuse a signing key file that would be published.
 */
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../util/errors.js';
import { isWithin } from '../util/within.js';

/** Where reads may go: the project root and the folders of `allowOutside`, as given (not yet resolved). */
export interface Jail {
  /** Absolute project root. */
  root: string;
  /** Absolute folders outside the project that reads may reach (the operator's `ARDSITE_ALLOW_OUTSIDE`). */
  allowOutside?: readonly string[];
  /**
   * Real paths inside it that are never read as content ({@link projectSecrets}): a path resolving into one
   * is placed `outside`.
   */
  secrets?: readonly string[];
}

function realOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** The real folders a jail admits: the project root and each `allowOutside` folder, symlinks resolved. */
export function jailFolders(jail: Jail): string[] {
  return [jail.root, ...(jail.allowOutside ?? [])].map((f) => realOrSelf(path.resolve(jail.root, f)));
}

/** Where a path leads: `inside` (with its real path), `outside` (with the real path), or `missing`. */
export type Placement =
  { state: 'inside'; real: string } | { state: 'outside'; real: string } | { state: 'missing' };

/**
 * Resolves `file` (absolute, or relative to the project root) with `realpath` and says whether it lies
 * inside one of {@link jailFolders} and outside the jail's secrets. A path that does not exist (or whose link is broken) is `missing`.
 */
export function placeInJail(file: string, jail: Jail, folders = jailFolders(jail)): Placement {
  let real: string;
  try {
    real = realpathSync(path.resolve(jail.root, file));
  } catch {
    return { state: 'missing' };
  }
  if (jail.secrets?.some((s) => isWithin(s, real))) return { state: 'outside', real };
  return folders.some((f) => isWithin(f, real)) ? { state: 'inside', real } : { state: 'outside', real };
}

/**
 * The sentence every "outside the project" message ends with: what the rule is and the opt-in.
 * `shown` is how the message names the file (project-relative).
 */
export function outsideMessage(shown: string, real: string): string {
  if (real.split(path.sep).some(isSecretName))
    return `${shown} resolves to ${real}, a secret of the project (.git, .env, .ardsite, .npmrc, .git-credentials, a key file), which content never reads`;
  return `${shown} resolves to ${real}, outside the project folder; a build reads only files inside the project (a symbolic link that leaves it is refused). If you, who run the build, really keep files elsewhere, list that folder in the environment variable ARDSITE_ALLOW_OUTSIDE (content cannot widen what a build reads)`;
}

/**
 * The names, at the project root, of what is never published (DESIGN.md §10): git's folder (its
 * `config` holds a CI checkout's token), the environment files (`.env`, `.env.local`, …), ardsite's own
 * folder (the default key), npm's settings (a registry token) and git's credential store.
 */
const SECRET_NAMES = /^(\.git|\.env(\..*)?|\.ardsite|\.npmrc|\.git-credentials)$/;

/** True when `name`, a file or folder name at a project's root, is one of its secrets ({@link SECRET_NAMES}). */
export function isSecretName(name: string): boolean {
  return SECRET_NAMES.test(name);
}

/**
 * The real paths of the project's secrets: each name at `root` that {@link SECRET_NAMES} matches, and
 * `keyFiles` (absolute, or relative to `root`; the signing key files named by the operator or
 * publisher.yaml) that exist.
 */
export function projectSecrets(root: string, keyFiles: readonly string[] = []): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(root).filter((n) => SECRET_NAMES.test(n));
  } catch {
    names = [];
  }
  const found = [...names.map((n) => path.join(root, n)), ...keyFiles.map((f) => path.resolve(root, f))];
  return [...new Set(found.map(realOrSelf))];
}

/** A symbolic link under `public/` whose target leaves the jail (or does not exist). */
export interface PublicLinkProblem {
  /** Project-relative path of the link, with `/`. */
  file: string;
  /** The real path it leads to, or undefined for a broken link. */
  real?: string;
  /** The secret of the project (a real path of {@link projectSecrets}) the link reaches or holds. */
  secret?: string;
}

/** What {@link scanPublicFolder} found. */
export interface PublicScan {
  /**
   * Real paths of every folder or file whose contents end up in the site: `public/` itself and the
   * target of each symbolic link found inside it (recursively). A file inside any of them is published.
   */
  published: string[];
  /** Links that leave the jail, are broken, or reach a secret of the project. */
  problems: PublicLinkProblem[];
}

/**
 * The rule for one symbolic link in `public/` (`abs`, shown as `shown`): where it leads (`real`, undefined
 * when broken), and the problem when it is broken, leaves the jail, or leads to, into or to a folder
 * holding one of `secrets`. The build's scan ({@link scanPublicFolder}) and the dev server
 * ({@link publicPathProblem}) both judge links by it.
 */
function publicLink(
  abs: string,
  shown: string,
  jail: Jail,
  folders: readonly string[],
  secrets: readonly string[],
): { real?: string; problem?: PublicLinkProblem } {
  // The secrets are judged below, with their own finding.
  const place = placeInJail(abs, { root: jail.root }, [...folders]);
  if (place.state === 'missing') return { problem: { file: shown } };
  if (place.state === 'outside') return { real: place.real, problem: { file: shown, real: place.real } };
  const secret = secrets.find((s) => isWithin(s, place.real) || isWithin(place.real, s));
  return secret === undefined
    ? { real: place.real }
    : { real: place.real, problem: { file: shown, real: place.real, secret } };
}

/**
 * Whether the file at `relPath` (with `/`, no leading `/`) under `<root>/public` may be served, by the rule
 * the build applies to public/ ({@link scanPublicFolder}): each symbolic link on its way is judged as the
 * scan judges it, and the file itself must resolve inside the jail and be no secret. Returns the problem,
 * or undefined (also for a path that does not exist: nothing to serve).
 */
export function publicPathProblem(
  jail: Jail,
  relPath: string,
  secrets: readonly string[] = projectSecrets(jail.root),
  folders = jailFolders(jail),
): PublicLinkProblem | undefined {
  let abs = jail.root;
  for (const segment of ['public', ...relPath.split('/').filter(Boolean)]) {
    abs = path.join(abs, segment);
    let st;
    try {
      st = lstatSync(abs);
    } catch {
      return undefined;
    }
    if (!st.isSymbolicLink()) continue;
    const shown = path.relative(jail.root, abs).split(path.sep).join('/');
    const link = publicLink(abs, shown, jail, folders, secrets);
    if (link.problem) return link.problem;
  }
  return undefined;
}

/**
 * Walks `<root>/public` without following links blindly: each symbolic link is resolved, its target
 * recorded as published, checked against the jail and against `secrets` (a link to a secret, into one, or
 * to a folder holding one is a problem, not walked), and walked in turn (once: loops end). A missing
 * `public/` gives an empty scan.
 * @param secrets real paths that are never published ({@link projectSecrets}).
 */
export function scanPublicFolder(
  jail: Jail,
  folders = jailFolders(jail),
  secrets: readonly string[] = projectSecrets(jail.root),
): PublicScan {
  const publicDir = path.join(jail.root, 'public');
  const published: string[] = [];
  const problems: PublicLinkProblem[] = [];
  const shown = (abs: string) => path.relative(jail.root, abs).split(path.sep).join('/');
  const seen = new Set<string>();
  const visit = (dir: string, real: string) => {
    if (seen.has(real)) return;
    seen.add(real);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      const abs = path.join(dir, name);
      let st;
      try {
        st = lstatSync(abs);
      } catch {
        continue;
      }
      if (st.isSymbolicLink()) {
        const link = publicLink(abs, shown(abs), jail, folders, secrets);
        if (link.real !== undefined) published.push(link.real);
        if (link.problem) {
          problems.push(link.problem);
          continue;
        }
        if (statSync(abs).isDirectory()) visit(abs, link.real!);
      } else if (st.isDirectory()) {
        visit(abs, path.join(real, name));
      }
    }
  };
  const top = placeInJail(publicDir, jail, folders);
  if (top.state === 'missing') return { published, problems };
  published.push(top.real);
  if (top.state === 'outside') return { published, problems: [{ file: 'public', real: top.real }] };
  visit(publicDir, top.real);
  return { published, problems };
}

/**
 * The finding of `npm run check` (and so of the build) on a link of {@link scanPublicFolder}: `FILE_MISSING`
 * (broken), `FILE_OUTSIDE_PROJECT` (leaves the jail) or `PUBLIC_LINK_TO_SECRET`, at the link's file.
 */
export function publicLinkDiagnostic(problem: PublicLinkProblem): Diagnostic {
  const secretShown = (s: string) => path.basename(s);
  const secretPlace = (secret: string, real: string) =>
    real === secret ? 'to' : isWithin(secret, real) ? 'into' : 'to a folder holding';
  return {
    code:
      problem.real === undefined
        ? 'FILE_MISSING'
        : problem.secret !== undefined
          ? 'PUBLIC_LINK_TO_SECRET'
          : 'FILE_OUTSIDE_PROJECT',
    severity: 'error',
    message:
      problem.real === undefined
        ? 'this symbolic link in public/ leads to nothing'
        : problem.secret !== undefined
          ? `this symbolic link in public/ leads ${secretPlace(problem.secret, problem.real)} ${secretShown(problem.secret)}, a secret of the project that is never published; public/ is copied into the site. Remove the link`
          : `${outsideMessage(problem.file, problem.real)}; public/ is copied into the site, so it would be published`,
    file: problem.file,
  };
}

/**
 * The published folder or file (of {@link scanPublicFolder}) that holds the real path `file`, or
 * undefined when `file` is not published.
 */
export function publishedHolder(file: string, scan: PublicScan): string | undefined {
  const real = realOrSelf(file);
  return scan.published.find((p) => isWithin(p, real));
}
