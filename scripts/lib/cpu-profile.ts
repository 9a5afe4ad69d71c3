/**
 * Reads V8 CPU profiles (`.cpuprofile`, the JSON `node --cpu-prof` writes: Chrome DevTools Protocol,
 * `Profiler.Profile`) of a build's threads and says where the time went: the functions with the most
 * self time, and the time of each of ardsite's own functions with what it called in packages and in
 * Node (each sample goes to the nearest of ardsite's frames on its stack; samples with none stay with
 * the package or Node function they were in). Used by scripts/profile-summary.ts.
 */

/** The parts of a `Profiler.Profile` read here. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  samples: number[];
  /** Microseconds between a sample and the one before it. */
  timeDeltas: number[];
}

/** Milliseconds per name, largest first. */
export type Ranked = Array<{ name: string; ms: number }>;

/** What {@link summariseProfile} finds. */
export interface ProfileSummary {
  /** Milliseconds sampled (wall time of the thread). */
  sampledMs: number;
  /** Milliseconds the thread was idle (waiting). */
  idleMs: number;
  /** The functions with the most self time. */
  self: Ranked;
  /** ardsite's functions with the time of what they called outside ardsite; then the rest by function. */
  own: Ranked;
}

/** `name file:line` of a frame, the file relative to `root` (packages as `node_modules/…` from the last). */
function frameName(frame: CpuProfile['nodes'][number]['callFrame'], root: string): string {
  let file = frame.url.replace(/^file:\/\//, '');
  const inPackages = file.lastIndexOf('/node_modules/');
  if (inPackages >= 0) file = file.slice(inPackages + 1);
  else if (file.startsWith(root)) file = file.slice(root.length).replace(/^\//, '');
  return `${frame.functionName || '(anonymous)'} ${file}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
}

/** The `top` largest of `totals`. */
function ranked(totals: Map<string, number>, top: number): Ranked {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({ name, ms: us / 1000 }));
}

/**
 * Sums `profile` up. `isOwn(url)` tells ardsite's code (its sources, its bundled workers) from the rest;
 * `root` is cut from file names; `top` is how many of each list are kept.
 */
export function summariseProfile(
  profile: CpuProfile,
  isOwn: (url: string) => boolean,
  { root = '', top = 25 }: { root?: string; top?: number } = {},
): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const owners = new Map<number, string>();
  /** The nearest of ardsite's frames from node `id` up, else the node itself. */
  const owner = (id: number): string => {
    const known = owners.get(id);
    if (known !== undefined) return known;
    let at: number | undefined = id;
    while (at !== undefined && !isOwn(byId.get(at)!.callFrame.url)) at = parent.get(at);
    const name = frameName(byId.get(at ?? id)!.callFrame, root);
    owners.set(id, name);
    return name;
  };
  const self = new Map<string, number>();
  const own = new Map<string, number>();
  let sampled = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const frame = byId.get(id)!.callFrame;
    sampled += us;
    if (frame.functionName === '(idle)') {
      idle += us;
      return;
    }
    const name = frameName(frame, root);
    self.set(name, (self.get(name) ?? 0) + us);
    const by = owner(id);
    own.set(by, (own.get(by) ?? 0) + us);
  });
  return {
    sampledMs: sampled / 1000,
    idleMs: idle / 1000,
    self: ranked(self, top),
    own: ranked(own, top),
  };
}
