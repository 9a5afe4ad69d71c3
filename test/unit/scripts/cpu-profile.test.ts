/** The CPU profile summary (scripts/lib/cpu-profile.ts) on a small hand-made profile. */
import { describe, expect, it } from 'vitest';
import { summariseProfile, type CpuProfile } from '../../../scripts/lib/cpu-profile.js';

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 9 });
// (root) → buildAgent (ours) → stringify (a package) → (native); (root) → render (a package); (idle).
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', ''), children: [2, 5, 6] },
    { id: 2, callFrame: frame('buildAgent', 'file:///app/src/core/site/site-agent.ts'), children: [3] },
    { id: 3, callFrame: frame('stringify', 'file:///app/node_modules/pkg/index.js'), children: [4] },
    { id: 4, callFrame: frame('write', 'file:///app/node_modules/pkg/write.js') },
    { id: 5, callFrame: frame('render', 'file:///app/node_modules/astro/render.js') },
    { id: 6, callFrame: frame('(idle)', '') },
  ],
  samples: [2, 3, 4, 4, 5, 6, 6],
  timeDeltas: [1000, 1000, 1000, 1000, 3000, 5000, 5000],
};

describe('summariseProfile', () => {
  it('ranks self time, and gives each of ardsite’s functions what it called outside ardsite', () => {
    const s = summariseProfile(profile, (url) => url.includes('/app/src/'), { root: '/app' });
    expect(s.sampledMs).toBe(17);
    expect(s.idleMs).toBe(10);
    expect(s.self).toEqual([
      { name: 'render node_modules/astro/render.js:10', ms: 3 },
      { name: 'write node_modules/pkg/write.js:10', ms: 2 },
      { name: 'buildAgent src/core/site/site-agent.ts:10', ms: 1 },
      { name: 'stringify node_modules/pkg/index.js:10', ms: 1 },
    ]);
    expect(s.own).toEqual([
      { name: 'buildAgent src/core/site/site-agent.ts:10', ms: 4 },
      { name: 'render node_modules/astro/render.js:10', ms: 3 },
    ]);
  });

  it('keeps the top N', () => {
    expect(summariseProfile(profile, () => false, { top: 1 }).self).toHaveLength(1);
  });
});
