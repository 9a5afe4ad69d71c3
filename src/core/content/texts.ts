/**
 * Texts given per language (DESIGN.md §9 "Languages", docs/languages.md). A field the schemas mark with
 * `PER_LANGUAGE` (src/core/schema/common.ts: names, descriptions, skill examples, access justifications)
 * is a string in the site's default language, or a map of BCP 47 tag (RFC 5646) → text:
 *
 * ```yaml
 * description:
 *   en: Books flights for you.
 *   pt-BR: Reserva voos para você.
 * ```
 *
 * {@link takeTextsPerLanguage} reads such maps out of a document before it is validated: the schema then
 * sees the default language's text, which the cards and ard.json carry byte for byte as before, and the
 * others go into a {@link TextTable} that the pages read, keyed by the document and the field's path (the
 * same `Origin` every content item already keeps). An agent's Markdown body in another language is the
 * file `content/agents/<slug>.<tag>.md` ({@link languageFiles}).
 */
import path from 'node:path';
import { z } from 'zod';
import { formatPath, type Diagnostic } from '../util/errors.js';
import { isLanguageTag, sameLanguage, siteLanguages, type LanguageSettings } from '../i18n/languages.js';
import { formatBytes } from './bounds.js';
import { markdownNestingDiagnostic } from './markdown-nesting.js';
import { cutAtComma } from './text-comma.js';
import { rel, type ContentReader } from './read.js';
import type { SourceDoc } from '../model/source.js';
import type { TextTable, TextValue } from '../model/text-table.js';

/** A field given per language: its pattern (names, `[]` for each item of a list, `*` for each map value). */
export interface TextField {
  pattern: readonly string[];
  /** True for a list of texts (`skills[].examples`). */
  list: boolean;
}

type Json = Record<string, unknown>;

function asJson(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

function collectFields(node: Json, prefix: string[], out: TextField[]): void {
  if (node.localized === true) {
    out.push({ pattern: prefix, list: node.type === 'array' });
    return;
  }
  for (const alternative of [...((node.anyOf ?? node.oneOf ?? []) as unknown[])].map(asJson))
    if (alternative) collectFields(alternative, prefix, out);
  const items = asJson(node.items);
  if (items) collectFields(items, [...prefix, '[]'], out);
  for (const [name, child] of Object.entries(asJson(node.properties) ?? {})) {
    const field = asJson(child);
    if (field) collectFields(field, [...prefix, name], out);
  }
  const values = asJson(node.additionalProperties);
  if (values) collectFields(values, [...prefix, '*'], out);
}

const fieldsBySchema = new WeakMap<z.ZodType, readonly TextField[]>();

/**
 * The fields of `schema` that may be given per language: those whose `.meta()` holds `PER_LANGUAGE`
 * (read from the schema's JSON Schema, input side, as the field reference reads it). Computed once per
 * schema.
 */
export function perLanguageFields(schema: z.ZodType): readonly TextField[] {
  let fields = fieldsBySchema.get(schema);
  if (!fields) {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', reused: 'inline' });
    const out: TextField[] = [];
    collectFields(json as Json, [], out);
    fieldsBySchema.set(schema, (fields = out));
  }
  return fields;
}

/** Where a per-language map was found: its path in the document and its field. */
interface Found {
  path: PropertyKey[];
  map: Json;
  field: TextField;
}

/** The way down to a value: its parent's way and its key there (undefined for the document itself). */
interface Way {
  parent: Way | undefined;
  key: PropertyKey;
}

/** The path of `way`, from the document down. */
function pathOf(way: Way | undefined): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let w = way; w !== undefined; w = w.parent) path.push(w.key);
  return path.reverse();
}

/**
 * Adds to `out` each per-language map of `field` inside `value`, whose way from the document is `way`,
 * following `field.pattern` from its `step`th segment on. A path is made only for a map found: most
 * documents hold none, and the walk visits every value a pattern reaches.
 */
function find(value: unknown, field: TextField, step: number, way: Way | undefined, out: Found[]): void {
  const { pattern } = field;
  if (step === pattern.length) {
    const map = asJson(value);
    if (map) out.push({ path: pathOf(way), map, field });
    return;
  }
  const head = pattern[step]!;
  if (head === '[]') {
    if (Array.isArray(value))
      for (let i = 0; i < value.length; i++) find(value[i], field, step + 1, { parent: way, key: i }, out);
    return;
  }
  const object = asJson(value);
  if (!object) return;
  if (head === '*') {
    for (const key of Object.keys(object)) find(object[key], field, step + 1, { parent: way, key }, out);
  } else if (Object.prototype.hasOwnProperty.call(object, head))
    find(object[head], field, step + 1, { parent: way, key: head }, out);
}

/** A well-formed text of another language: a non-empty string, or a non-empty list of them. Trimmed. */
function cleanText(value: unknown, list: boolean): TextValue | undefined {
  if (!list) return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const items = value.map((v) => (typeof v === 'string' ? v.trim() : ''));
  return items.every((v) => v !== '') ? items : undefined;
}

function setAt(root: unknown, at: readonly PropertyKey[], value: unknown): void {
  let node = root as Record<PropertyKey, unknown>;
  for (const key of at.slice(0, -1)) node = node[key] as Record<PropertyKey, unknown>;
  node[at[at.length - 1]!] = value;
}

/** What {@link takeTextsPerLanguage} needs beside the document: the site's languages and where to put texts. */
export interface TextContext {
  settings: LanguageSettings;
  table: TextTable;
  diagnostics: Diagnostic[];
}

/**
 * Reads the per-language maps out of `value` (a document of `source`, at `basePath` in it, validated next
 * with `schema`): returns `value` with each map replaced by its default-language text (`value` itself,
 * untouched, when it has none) and records the other languages' texts in `context.table`. Reports
 * TEXT_LANGUAGE_MISSING (no default-language text; the first text given stands in, so that the schema
 * reports nothing more), TEXT_LANGUAGE_UNKNOWN (a language the site does not publish, or one given twice)
 * and SCHEMA_INVALID_TYPE (another language's text that is not a text), each at its field and line.
 */
export function takeTextsPerLanguage(
  value: unknown,
  schema: z.ZodType,
  source: SourceDoc,
  context: TextContext,
  basePath: readonly PropertyKey[] = [],
): unknown {
  const found: Found[] = [];
  for (const field of perLanguageFields(schema)) find(value, field, 0, undefined, found);
  if (found.length === 0) return value;
  const copy = structuredClone(value);
  const languages = siteLanguages(context.settings);
  const fallback = languages[0]!;
  const report = (code: Diagnostic['code'], message: string, at: readonly PropertyKey[]) => {
    const full = [...basePath, ...at];
    context.diagnostics.push(
      source.diagnostic({ code, severity: 'error', message, path: formatPath(full) }, full),
    );
  };
  for (const { path: at, map, field } of found) {
    let defaultText: unknown;
    let firstText: unknown;
    const seen = new Set<string>();
    const cut = cutAtComma(map, languages);
    if (cut) {
      // One error for the whole map: the other keys and the missing text all follow from the comma.
      report(
        'TEXT_UNQUOTED_COMMA',
        `the ${cut.language} text was cut at a comma: in a map written on one line ({ … }) a comma ends a text, so "${cut.rest}" was read as another key. Quote the text: ${cut.language}: "${cut.text}, ${cut.rest}" (or write the map on several lines)`,
        [...at, cut.rest.split(', ')[0]!],
      );
      const fallbackText = map[fallback];
      setAt(copy, at, typeof fallbackText === 'string' ? fallbackText : '');
      continue;
    }
    for (const [key, text] of Object.entries(map)) {
      const language = languages.find((t) => sameLanguage(t, key));
      if (!language) {
        const hint =
          context.settings.languages === undefined
            ? `; to publish pages in "${key}" too, list the languages in publisher.yaml: languages: [${[fallback, key].join(', ')}]`
            : '';
        report(
          'TEXT_LANGUAGE_UNKNOWN',
          `"${key}" is not a language of this site (${languages.join(', ')})${hint}`,
          [...at, key],
        );
        continue;
      }
      if (seen.has(language)) {
        report('TEXT_LANGUAGE_UNKNOWN', `the "${language}" text is given twice (as "${key}" too)`, [
          ...at,
          key,
        ]);
        continue;
      }
      seen.add(language);
      firstText ??= text;
      if (language === fallback) {
        defaultText = text;
        continue;
      }
      const clean = cleanText(text, field.list);
      if (clean === undefined) {
        report(
          'SCHEMA_INVALID_TYPE',
          field.list ? 'must be a list of texts (none empty)' : 'must be a text that is not empty',
          [...at, key],
        );
        continue;
      }
      context.table.set(source, [...basePath, ...at], language, clean);
    }
    if (defaultText === undefined)
      report(
        'TEXT_LANGUAGE_MISSING',
        `this text is given per language but not in the site's default language "${fallback}", the one the agent card and ard.json carry: add ${fallback}: …`,
        at,
      );
    setAt(copy, at, defaultText ?? firstText ?? '');
  }
  return copy;
}

/** The agent files of `content/agents/` sorted into agents and Markdown bodies in other languages. */
export interface AgentFileKinds {
  /** `content/agents/<slug>.md` of each agent. */
  agents: string[];
  /** `content/agents/<slug>.<tag>.md`, with the agent's slug and the site's spelling of the tag. */
  bodies: Array<{ file: string; slug: string; language: string }>;
}

/**
 * Sorts the Markdown files of `content/agents/` (absolute paths): on a site with `languages:`, a file
 * `<slug>.<tag>.md` beside `<slug>.md`, whose `<tag>` is a well-formed BCP 47 tag, holds the agent's body
 * in that language; every other file is an agent. A tag that is the default language
 * (LANGUAGE_FILE_INVALID: that body is in `<slug>.md`) or not one of the site's languages
 * (TEXT_LANGUAGE_UNKNOWN) is reported, and the file is not read. `rel` gives the path shown in messages.
 */
export function languageFiles(
  files: readonly string[],
  settings: LanguageSettings,
  rel: (file: string) => string,
  diagnostics: Diagnostic[],
): AgentFileKinds {
  if (settings.languages === undefined) return { agents: [...files], bodies: [] };
  const names = new Set(files.map((f) => path.basename(f)));
  const languages = siteLanguages(settings);
  const out: AgentFileKinds = { agents: [], bodies: [] };
  for (const file of files) {
    const match = /^(.+)\.([^.]+)\.md$/.exec(path.basename(file));
    if (!match || !names.has(`${match[1]}.md`) || !isLanguageTag(match[2]!)) {
      out.agents.push(file);
      continue;
    }
    const [, slug, tag] = match as unknown as [string, string, string];
    const language = languages.find((t) => sameLanguage(t, tag));
    if (language === undefined || language === languages[0]) {
      diagnostics.push({
        code: language === undefined ? 'TEXT_LANGUAGE_UNKNOWN' : 'LANGUAGE_FILE_INVALID',
        severity: 'error',
        message:
          language === undefined
            ? `this file holds the "${tag}" text of agent "${slug}", but "${tag}" is not a language of this site (${languages.join(', ')})`
            : `the body of agent "${slug}" in the default language "${language}" is the Markdown body of ${slug}.md, not a file of its own`,
        file: rel(file),
      });
      continue;
    }
    out.bodies.push({ file, slug, language });
  }
  return out;
}

/**
 * Reads the body files of {@link languageFiles} into `table`. A file must be within the limits (a text of
 * at most `limits.textBytes`: TEXT_TOO_LONG) and hold only Markdown: one that starts with YAML front matter
 * is LANGUAGE_FILE_INVALID at line 1 (the agent's name, description and skills in that language are
 * given per language in `<slug>.md`). A byte-order mark is dropped.
 */
export async function readLanguageBodies(
  reader: ContentReader,
  bodies: AgentFileKinds['bodies'],
  table: TextTable,
  diagnostics: Diagnostic[],
): Promise<void> {
  for (const { file: absFile, slug, language } of bodies) {
    const text = await reader.read(absFile);
    if (text === undefined) continue;
    const file = rel(reader.root, absFile);
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > reader.limits.textBytes) {
      diagnostics.push({
        code: 'TEXT_TOO_LONG',
        severity: 'error',
        message: `the Markdown body is ${formatBytes(bytes)} long; the limit is ${formatBytes(reader.limits.textBytes)} (limits.textBytes in content/publisher.yaml)`,
        file,
      });
      continue;
    }
    const body = text.replace(/^\uFEFF/, '');
    if (/^---\r?\n/.test(body)) {
      diagnostics.push({
        code: 'LANGUAGE_FILE_INVALID',
        severity: 'error',
        message:
          'this file holds only the Markdown body of the agent in its language, without front matter: give the name, description and skills in that language as per-language texts in the agent’s own file ({ en: …, pt-BR: … })',
        file,
        line: 1,
      });
      continue;
    }
    const nested = markdownNestingDiagnostic(body, reader.limits, file, 0);
    if (nested) {
      diagnostics.push(nested);
      continue;
    }
    table.setBody(slug, language, body);
  }
}
