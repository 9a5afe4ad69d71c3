/**
 * The table of a site's texts in its languages other than the default (the texts read by the content step
 * of content/texts.ts, kept in the shared content model and read by the pages). BCP 47 tags (RFC 5646) as
 * the site spells them; field paths formatted as in the content model's origins.
 */
import { formatPath } from '../util/errors.js';
import type { SourceDoc } from './source.js';

/** Where a content item is defined (the shape of the content model's `Origin`): a document and a path. */
export interface TextOrigin {
  source: SourceDoc;
  path: readonly PropertyKey[];
}

/** A text in one language: a string, or a list of strings for a list field (`skills[].examples`). */
export type TextValue = string | readonly string[];

/**
 * The texts of the site in its languages other than the default, by document and field path, and the
 * agents' Markdown bodies in those languages, by agent slug. Empty on a site in one language.
 */
export class TextTable {
  private readonly texts = new Map<SourceDoc, Map<string, Map<string, TextValue>>>();
  private readonly bodies = new Map<string, Map<string, string>>();

  /** Records `text` as the `language` text of the field at `fieldPath` of `source`. */
  set(source: SourceDoc, fieldPath: readonly PropertyKey[], language: string, text: TextValue): void {
    let fields = this.texts.get(source);
    if (!fields) this.texts.set(source, (fields = new Map()));
    const key = formatPath(fieldPath);
    let byLanguage = fields.get(key);
    if (!byLanguage) fields.set(key, (byLanguage = new Map()));
    byLanguage.set(language, text);
  }

  /** The `language` text of the field at `fieldPath` of `source` (the site's spelling of the tag), if given. */
  get(source: SourceDoc, fieldPath: readonly PropertyKey[], language: string): TextValue | undefined {
    return this.texts.get(source)?.get(formatPath(fieldPath))?.get(language);
  }

  /**
   * True when the definitions at `a` and `b` (two origins of one resource or operation, DESIGN.md §1 merge
   * rule) give different texts in one language for one of `fields`: authoring data that cannot be merged.
   */
  conflicts(a: TextOrigin, b: TextOrigin, fields: readonly string[]): boolean {
    return fields.some((field) => {
      const left = this.texts.get(a.source)?.get(formatPath([...a.path, field]));
      const right = this.texts.get(b.source)?.get(formatPath([...b.path, field]));
      if (!left || !right) return false;
      return [...left].some(([language, text]) => {
        const other = right.get(language);
        return other !== undefined && JSON.stringify(other) !== JSON.stringify(text);
      });
    });
  }

  /** Copies the texts of `fields` given at `from` and not at `into` there (the merged definition keeps `into`). */
  copy(from: TextOrigin, into: TextOrigin, fields: readonly string[]): void {
    for (const field of fields) {
      const given = this.texts.get(from.source)?.get(formatPath([...from.path, field]));
      for (const [language, text] of given ?? []) {
        const target = [...into.path, field];
        if (this.get(into.source, target, language) === undefined)
          this.set(into.source, target, language, text);
      }
    }
  }

  /** Records the Markdown body of the agent `slug` in `language`. */
  setBody(slug: string, language: string, body: string): void {
    let byLanguage = this.bodies.get(slug);
    if (!byLanguage) this.bodies.set(slug, (byLanguage = new Map()));
    byLanguage.set(language, body);
  }

  /** The Markdown body of the agent `slug` in `language`, if its file exists. */
  body(slug: string, language: string): string | undefined {
    return this.bodies.get(slug)?.get(language);
  }
}
