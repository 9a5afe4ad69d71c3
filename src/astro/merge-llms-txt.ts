/**
 * One `/llms.txt` from the site's own and ardsite's (llmstxt.org: an H1 with the site's name, an optional
 * blockquote summary and paragraphs, then H2 sections of link lists, the one named `Optional` holding
 * links a reader may skip). The site's file leads: its H1, summary, paragraphs and sections stay as they
 * are and in their order; ardsite's paragraphs follow the site's, its sections follow the site's sections,
 * and the items of both `Optional` sections end the file in one `Optional` section. ardsite's H1 and
 * summary are left out, since a file has one of each.
 */

/** The parts of an llms.txt (llmstxt.org "Format"). */
interface LlmsTxtParts {
  /** The H1 line and the blockquote lines under it (the summary). */
  head: string[];
  /** The lines between the head and the first H2 (paragraphs, lists). */
  body: string[];
  /** The H2 sections, each its heading line and the lines under it, in order. */
  sections: { title: string; line: number; lines: string[] }[];
}

/** Why two llms.txt cannot be merged: the message names both files and the lines. */
export class LlmsTxtMergeError extends Error {
  override readonly name = 'LlmsTxtMergeError';
}

/** Trailing blank lines removed. */
function trimEnd(lines: string[]): string[] {
  const out = [...lines];
  while (out.length > 0 && out[out.length - 1]!.trim() === '') out.pop();
  return out;
}

/** Splits one llms.txt into its parts. @returns undefined when the file has no H1 first. */
function parse(text: string): LlmsTxtParts | undefined {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0 || !/^# \S/.test(lines[first]!)) return undefined;
  let at = first + 1;
  const head = [lines[first]!];
  while (at < lines.length && (lines[at]!.trim() === '' || lines[at]!.startsWith('>'))) {
    head.push(lines[at]!);
    at += 1;
  }
  const body: string[] = [];
  const sections: LlmsTxtParts['sections'] = [];
  let fence = false;
  for (; at < lines.length; at += 1) {
    const line = lines[at]!;
    if (/^(```|~~~)/.test(line)) fence = !fence;
    if (!fence && /^## \S/.test(line))
      sections.push({ title: line.slice(3).trim(), line: at + 1, lines: [line] });
    else if (sections.length > 0) sections[sections.length - 1]!.lines.push(line);
    else body.push(line);
  }
  return { head: trimEnd(head), body: trimEnd(body), sections };
}

/** The section title llmstxt.org gives a meaning: links a reader may skip. */
const OPTIONAL = 'optional';

/**
 * The merged llms.txt of the site's own `site` and ardsite's `ours` (llmstxt.org), `siteName` and
 * `oursName` naming the two files in errors.
 * @throws LlmsTxtMergeError when the site's file does not begin with an H1 (so it is not in the
 *   llmstxt.org format and cannot lead), or when both have an H2 section of the same title other than
 *   `Optional` (a reader would meet two lists under one heading): naming both files and the lines.
 */
export function mergeLlmsTxt(site: string, ours: string, siteName: string, oursName: string): string {
  const own = parse(site);
  if (!own) {
    throw new LlmsTxtMergeError(
      `${siteName} does not begin with an H1 ("# Name", llmstxt.org), so ardsite cannot add ${oursName} to it`,
    );
  }
  const added = parse(ours);
  if (!added) throw new LlmsTxtMergeError(`${oursName} does not begin with an H1 ("# Name", llmstxt.org)`);
  const key = (title: string) => title.toLowerCase();
  const ownTitles = new Map(own.sections.map((s) => [key(s.title), s]));
  const clashes = added.sections.filter((s) => key(s.title) !== OPTIONAL && ownTitles.has(key(s.title)));
  if (clashes.length > 0) {
    throw new LlmsTxtMergeError(
      clashes
        .map(
          (s) =>
            `both ${siteName}:${ownTitles.get(key(s.title))!.line} and ${oursName}:${s.line} have a section "## ${s.title}"`,
        )
        .join('\n'),
    );
  }
  const optional = [...own.sections, ...added.sections].filter((s) => key(s.title) === OPTIONAL);
  const block = (lines: string[]) => (lines.length > 0 ? [...trimEnd(lines), ''] : []);
  const out = [
    ...block(own.head),
    ...block(own.body),
    ...block(added.body),
    ...own.sections.filter((s) => key(s.title) !== OPTIONAL).flatMap((s) => block(s.lines)),
    ...added.sections.filter((s) => key(s.title) !== OPTIONAL).flatMap((s) => block(s.lines)),
  ];
  if (optional.length > 0) {
    const items = optional.map((s) => trimEnd(trimEnd(s.lines.slice(1)).reverse()).reverse());
    out.push(optional[0]!.lines[0]!, '', ...items.flatMap((lines) => lines));
  }
  return `${trimEnd(out).join('\n')}\n`;
}
