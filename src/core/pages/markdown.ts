/**
 * Renders an agent's Markdown body (DESIGN.md §1: "the long description shown on its page") with the
 * unified pipeline Astro itself uses (`@astrojs/markdown-remark`; no Astro runtime involved), plus
 * three rules of ours, applied to the Markdown tree before it becomes HTML:
 * - raw HTML in the Markdown is shown as text, never injected: the pages ship no script and content
 *   cannot add one;
 * - links and images keep only `http:`, `https:`, `mailto:` and site-relative URLs (a
 *   `javascript:` link becomes its plain text);
 * - headings are shifted so the body's top level is `<h3>`, below the page's `<h1>` and the `<h2>` of
 *   its section, keeping the page's heading order.
 */
import { createMarkdownProcessor, type MarkdownProcessor } from '@astrojs/markdown-remark';

/** A node of the Markdown tree (mdast), as far as these rules need it. */
interface MdNode {
  type: string;
  value?: string;
  url?: string;
  depth?: number;
  children?: MdNode[];
}

/** The heading level the body's top-level headings get. */
export const BODY_TOP_HEADING = 3;

/** Markdown nodes whose children are blocks (flow content), where raw HTML is a block of its own. */
const BLOCK_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/** True for a URL a page may link to: `http(s):`, `mailto:`, or one without a scheme (site-relative). */
export function isSafeUrl(url: string): boolean {
  // Browsers ignore control characters and spaces around and inside a scheme ("java\nscript:").
  const compact = [...url].filter((c) => c.charCodeAt(0) > 0x20).join('');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact);
  return !scheme || SAFE_SCHEMES.has(scheme[0].toLowerCase());
}

/** Every node of `tree` with its parent, in document order. */
function nodes(tree: MdNode): Array<[MdNode, MdNode | undefined]> {
  const out: Array<[MdNode, MdNode | undefined]> = [];
  const visit = (node: MdNode, parent: MdNode | undefined) => {
    out.push([node, parent]);
    for (const child of node.children ?? []) visit(child, node);
  };
  visit(tree, undefined);
  return out;
}

/** The remark plugin that applies this module's three rules (see the module comment). */
export function remarkSafeBody() {
  return (tree: MdNode): void => {
    const all = nodes(tree);
    const depths = all.flatMap(([n]) => (n.type === 'heading' && n.depth ? [n.depth] : []));
    const shift = depths.length > 0 ? BODY_TOP_HEADING - Math.min(...depths) : 0;
    for (const [node, parent] of all) {
      if (node.type === 'html') {
        // Shown as text; a block of HTML becomes a paragraph of text.
        if (parent && BLOCK_PARENTS.has(parent.type)) {
          Object.assign(node, { type: 'paragraph', children: [{ type: 'text', value: node.value ?? '' }] });
          delete node.value;
        } else {
          node.type = 'text';
        }
      } else if (node.type === 'heading' && node.depth) {
        node.depth = Math.min(6, Math.max(BODY_TOP_HEADING, node.depth + shift));
      } else if (node.type === 'link' && node.url !== undefined && !isSafeUrl(node.url)) {
        // The link becomes its own text.
        const siblings = parent?.children ?? [];
        siblings.splice(siblings.indexOf(node), 1, ...(node.children ?? []));
      } else if (
        (node.type === 'definition' || node.type === 'image') &&
        node.url !== undefined &&
        !isSafeUrl(node.url)
      ) {
        node.url = '';
      }
    }
  };
}

let processor: Promise<MarkdownProcessor> | undefined;

/**
 * Renders `markdown` to an HTML fragment (GitHub-flavoured Markdown, typographic quotes, no syntax
 * highlighting, the rules above). Deterministic.
 */
export async function renderMarkdown(markdown: string): Promise<string> {
  processor ??= createMarkdownProcessor({
    syntaxHighlight: false,
    remarkPlugins: [remarkSafeBody as never],
  });
  const { code } = await (await processor).render(markdown);
  return code;
}
