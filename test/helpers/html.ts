/**
 * Reading built HTML the way a browser does (parse5, the WHATWG HTML parser), for tests that must not
 * trust a regular expression: which elements a page really has, and the text a visitor sees.
 */
import { parse, type DefaultTreeAdapterTypes as T } from 'parse5';

/** A parsed document. */
export type HtmlDocument = T.Document;
/** An element of a parsed document. */
export type HtmlElement = T.Element;

/** Parses a whole HTML document. */
export function parseHtml(html: string): HtmlDocument {
  return parse(html);
}

function children(node: T.ParentNode): T.ChildNode[] {
  const template = node as T.Template;
  return template.nodeName === 'template' && template.content ? template.content.childNodes : node.childNodes;
}

/** Every element of `doc` named `tagName` (lower case), in document order. */
export function elements(doc: T.ParentNode, tagName: string): HtmlElement[] {
  const out: HtmlElement[] = [];
  const walk = (node: T.ParentNode) => {
    for (const child of children(node)) {
      if ('tagName' in child) {
        if (child.tagName === tagName) out.push(child);
        walk(child);
      }
    }
  };
  walk(doc);
  return out;
}

/** The value of attribute `name` of `el`, or undefined. */
export function attr(el: HtmlElement, name: string): string | undefined {
  return el.attrs.find((a) => a.name === name)?.value;
}

/** The text content of `node` (every descendant text node, as parsed). */
export function textContent(node: T.ParentNode): string {
  let out = '';
  for (const child of children(node)) {
    if (child.nodeName === '#text') out += (child as T.TextNode).value;
    else if ('childNodes' in child) out += textContent(child);
  }
  return out;
}

/** The text a visitor sees: the title and the body's text, without script, style and template content. */
export function visibleText(doc: HtmlDocument): string {
  const hidden = new Set(['script', 'style', 'template', 'noscript']);
  const parts: string[] = elements(doc, 'title').map(textContent);
  const walk = (node: T.ParentNode) => {
    for (const child of children(node)) {
      if (child.nodeName === '#text') parts.push((child as T.TextNode).value);
      else if ('tagName' in child && !hidden.has(child.tagName)) walk(child);
    }
  };
  for (const body of elements(doc, 'body')) walk(body);
  return parts.join(' ').replace(/\s+/g, ' ');
}
