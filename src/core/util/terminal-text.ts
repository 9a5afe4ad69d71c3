/**
 * Text read from a site, a card or a spec, made safe to print on a person's terminal. `npm run verify`,
 * `diff`, `import`, `pin` and `specs` print identifiers, names and messages that a hostile site chose;
 * written as they are, its escape sequences would act on the terminal (ECMA-48: CSI to move the cursor
 * and erase the `FAIL` lines above, OSC to set the window title, write the clipboard or hide a link),
 * a carriage return or a newline would forge a line of the report, and the Unicode bidirectional
 * controls would show its characters in another order than they are (Trojan Source, CVE-2021-42574).
 */

/**
 * C0 controls but the tab, DEL, C1 controls (U+0080 to U+009F: 8-bit CSI, OSC, …), the line and
 * paragraph separators, and the bidirectional marks, embeddings, overrides and isolates (Unicode
 * UAX #9: U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069).
 */
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- control characters are what is matched
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every character of {@link UNSAFE} written as a visible escape (`\x1b`, `\n`, `\u202e`), so
 * it prints as one line that shows what the site sent and does nothing else. Other text is unchanged.
 *
 * @param text any text, e.g. a finding's subject or message.
 * @returns the printable text. Never throws.
 */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
  });
}
