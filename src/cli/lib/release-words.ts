/**
 * What `npm run release` prints of one agent's outcome (src/core/releases/record.ts `ReleaseOutcome`;
 * docs/releases.md "The workflow"): the words after `<slug> <version>: `, saying what really happened to a
 * version already recorded. A corrected read-only operation is named as a correction, never as a narrowing:
 * the agent could always change data through it, and now its card says so.
 */
import type { CorrectedOperation, ReleaseOutcome } from '../../core/releases/record.js';
import { andList } from '../../core/util/word-list.js';

/** What says an operation may change data: `its stored spec`, `its method POST`. */
function evidence(c: CorrectedOperation): string {
  return c.method ? `its method ${c.method}` : 'its stored spec';
}

/**
 * The correction: which operations the release recorded as only reading may change data, by what, and that
 * this is no narrowing and no new access (`the release recorded create-issue as only reading, but its stored
 * spec says it may change data, …`).
 */
function correctionWords(corrected: readonly CorrectedOperation[]): string {
  const ids = corrected.map((c) => c.id);
  const list = andList(ids);
  const why =
    corrected.length === 1
      ? `${evidence(corrected[0]!)} says it may change data`
      : `they may change data (${corrected.map((c) => `${c.id}: ${evidence(c)}`).join('; ')})`;
  return (
    `the release recorded ${list} as only reading, but ${why}, ` +
    'as the card now says too; the agent could always change data there, so it gains no access'
  );
}

/**
 * The words of `outcome`: `recorded` (`would record` with `dryRun`), `already recorded`, with in
 * parentheses what differs now and that the next version records it, or `refused` (its diagnostic is
 * printed apart). Never throws.
 */
export function releaseWords(outcome: ReleaseOutcome, dryRun: boolean): string {
  const next = 'the next version records it';
  const corrected = outcome.corrected ?? [];
  switch (outcome.status) {
    case 'recorded':
      return dryRun ? 'would record' : 'recorded';
    case 'unchanged':
      return 'already recorded';
    case 'narrowed':
      return corrected.length > 0
        ? `already recorded (its RAM is narrower now; besides, a correction: ${correctionWords(corrected)}; ${next})`
        : `already recorded (its RAM is narrower now; ${next})`;
    case 'corrected':
      return `already recorded (a correction, not a narrowing: ${correctionWords(corrected)}; ${next})`;
    case 'reworded':
      return `already recorded (its RAM is only reworded now, with the same access; ${next})`;
    case 'differs':
      return (
        'already recorded (its RAM differs now where no access changes, such as an order or an ' +
        `operationId; ${next})`
      );
    case 'refused':
      return 'refused';
  }
}
