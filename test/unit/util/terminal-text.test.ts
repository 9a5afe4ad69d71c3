/**
 * Text a hostile site chose, as `npm run verify`, `diff`, `import`, `pin` and `specs` print it
 * (src/core/util/terminal-text.ts): no control character reaches the terminal, everything else is unchanged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terminalText } from '../../../src/core/util/terminal-text.js';

describe('terminalText', () => {
  it('shows escape sequences, line breaks and bidirectional controls as visible escapes', () => {
    expect(terminalText('a\u001b[2Jb')).toBe('a\\x1b[2Jb');
    expect(terminalText('\u001b]52;c;ZXZpbA==\u0007')).toBe('\\x1b]52;c;ZXZpbA==\\x07');
    expect(terminalText('x\r\nPASS')).toBe('x\\r\\nPASS');
    expect(terminalText('\u009b2K\u007f\u0000')).toBe('\\x9b2K\\x7f\\x00');
    expect(terminalText('abc\u202edcba\u2066\u2069\u200f')).toBe('abc\\u202edcba\\u2066\\u2069\\u200f');
  });

  it('leaves printable text, tabs and other scripts as they are', () => {
    for (const text of ['urn:air:acme.com:travel:trip-helper', 'Ação — 旅行 🧳', 'a\tb', '']) {
      expect(terminalText(text)).toBe(text);
    }
  });

  it('never lets a C0 or C1 control, DEL or a bidirectional control through (fast-check)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(terminalText(text)).not.toMatch(
          // eslint-disable-next-line no-control-regex -- control characters are what is matched
          /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/,
        );
      }),
      { numRuns: 300 },
    );
  });
});
