/**
 * The build's interrupt budget (src/cli/lib/tier-up-budget.ts): set for the process unless the flag was
 * given by hand, and a flag this Node's V8 knows (V8 ignores an unknown name given at run time silently).
 */
import { execFileSync } from 'node:child_process';
import type * as V8 from 'node:v8';
import { setFlagsFromString } from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUILD_INTERRUPT_BUDGET, delayTierUp } from '../../../src/cli/lib/tier-up-budget.js';

vi.mock('node:v8', async (original) => ({
  ...(await original<typeof V8>()),
  setFlagsFromString: vi.fn(),
}));

const execArgv = process.execArgv;

describe('the build’s interrupt budget', () => {
  afterEach(() => {
    process.execArgv = execArgv;
    vi.mocked(setFlagsFromString).mockClear();
  });

  it('sets eight times V8’s default budget', () => {
    process.execArgv = [...execArgv.filter((a) => !a.startsWith('--interrupt-budget'))];
    delayTierUp();
    expect(vi.mocked(setFlagsFromString).mock.calls).toEqual([['--interrupt-budget=540672']]);
    expect(BUILD_INTERRUPT_BUDGET).toBe(540_672);
  });

  it('leaves a budget given by hand alone', () => {
    process.execArgv = [...execArgv, '--interrupt-budget=100000'];
    delayTierUp();
    process.execArgv = [...execArgv, '--interrupt_budget', '100000'];
    delayTierUp();
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });

  it('names a flag of this Node’s V8, whose default is an eighth of the build’s', () => {
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    const line = /--interrupt-budget=(\d+)\n/.exec(options);
    expect(line, 'V8 lists --interrupt-budget with its default').not.toBeNull();
    expect(Number(line![1]) * 8).toBe(BUILD_INTERRUPT_BUDGET);
  });
});
