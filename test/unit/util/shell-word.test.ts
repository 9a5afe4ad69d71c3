/**
 * The commands ardsite prints for a person to paste (src/core/util/shell-word.ts): a path with spaces or
 * quotes comes back from a real POSIX shell as the one argument it was.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shellWord } from '../../../src/core/util/shell-word.js';

/** What `sh` gives as its first argument for the command line `printf %s <word>`. */
const throughShell = (word: string) => execFileSync('sh', ['-c', `printf %s ${word}`], { encoding: 'utf8' });

describe('shellWord', () => {
  it('leaves a plain path as it is', () => {
    expect(shellWord('../acme-agents')).toBe('../acme-agents');
    expect(shellWord('/tmp/a_b/c.d@1:2')).toBe('/tmp/a_b/c.d@1:2');
  });

  it('quotes a path with spaces, quotes or shell characters, which sh reads back whole', () => {
    for (const word of ['My Sites/acme', "it's", '$(rm -rf ~)', 'a;b|c&d', '*', '"x"', '']) {
      expect(throughShell(shellWord(word))).toBe(word);
    }
    expect(shellWord('My Sites/acme')).toBe("'My Sites/acme'");
  });

  it('round-trips any printable text through sh (fast-check)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 20 }), (word) => {
        expect(throughShell(shellWord(word))).toBe(word);
      }),
      { numRuns: 60 },
    );
  });
});
