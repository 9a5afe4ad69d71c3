/**
 * The field reference of every file a publisher writes (docs/reference.md and a page per file under
 * docs/reference/), read from the zod 4 schemas
 * themselves: each field's `.meta({ description, examples, spec })` (zod's global registry), its type and
 * default as `z.toJSONSchema` gives them for the input side. One source, so the reference cannot drift
 * from what `check` accepts; {@link missingReferenceParts} lists the fields that lack a description, a
 * specification or an example (a test keeps that list empty).
 *
 * Conventions for schema authors: every field gets `.meta({ description })`; a string, number or map field
 * also gets `examples: [value]`; `spec` names the specification the field comes from ("A2A v1.0
 * AgentSkill", "RAM proposal Resource", "ARD draft §3.2.2", "DESIGN.md §4") and is inherited from the nearest
 * object or field above that names one.
 */
import { stringify } from 'yaml';
import { ReleaseHistorySchema } from './release.js';
import { z } from 'zod';
import { AgentFrontMatter } from './agent.js';
import { OtherEntryFile } from './entry.js';
import { Publisher } from './publisher.js';
import { ResourceAccessManifest, ResourceFile } from './ram.js';

/** One file format of the reference: its title, where it lives and the schema that validates it. */
export interface ReferenceSection {
  /** Heading, e.g. "publisher.yaml". */
  title: string;
  /** Where the file lives in a publisher's project. */
  location: string;
  /** One paragraph introducing the file. */
  intro: string;
  /** The schema `check` validates the file with. */
  schema: z.ZodType;
  /**
   * True for a file the publisher writes, where the fields marked `PER_LANGUAGE` (./common.ts) may be given
   * per language; false for a file the tools write (the release history), whose texts are as published.
   */
  perLanguage: boolean;
}

/** One documented field, flattened: `signing.keyFile`, `skills[].id`, `securitySchemes.<name>.…`. */
export interface FieldRow {
  path: string;
  /** Human type: `string`, `integer`, `boolean`, `one of "A", "B"`, `list of …`, `map of name → …`. */
  type: string;
  required: boolean;
  /** The default applied when the field is absent, if any. */
  default?: unknown;
  description?: string;
  /** An example value: the first of `examples`, or derived (enums, booleans, lists, objects). */
  example?: unknown;
  /** True when the example was given in the schema, not derived. */
  exampleGiven: boolean;
  /** The specification the field comes from (own or inherited). */
  spec?: string;
  /** True for strings, numbers and maps: their example must be given. */
  needsExample: boolean;
  /** True for a text that may be given per language (`{ en: …, pt-BR: … }`, DESIGN.md §9 "Languages"). */
  perLanguage: boolean;
}

/** The files of a publisher's project, in the order of the reference. */
export const REFERENCE_SECTIONS: readonly ReferenceSection[] = [
  {
    title: 'publisher.yaml',
    location: 'content/publisher.yaml',
    intro: 'Who publishes the site, how it is signed and hosted, and the registry mode.',
    schema: Publisher,
    perLanguage: true,
  },
  {
    title: 'Agents',
    location: 'content/agents/<slug>.md',
    intro:
      'YAML front matter; the Markdown body below it is the long description. One agent: its A2A AgentCard fields, its ARD discovery signals and its Resource Access Manifest (RAM). The slug of the file name is the last segment of its URN.',
    schema: AgentFrontMatter,
    perLanguage: true,
  },
  {
    title: 'Resources',
    location: 'content/resources/<id>.yaml',
    intro:
      'One resource of the RAM catalog shared by every agent (RAM proposal `Resource`), with its operations. Agents name its operations in `resourceAccesses`.',
    schema: ResourceFile,
    perLanguage: true,
  },
  {
    title: 'Entries',
    location: 'content/entries/<slug>.yaml',
    intro:
      'Another ARD entry listed beside the agents: an MCP server card, another publisher’s agent, a dataset, … (ARD draft §3.2).',
    schema: OtherEntryFile,
    perLanguage: true,
  },
  {
    title: 'RAM file',
    location: 'content/agents/<slug>.ram.json',
    intro:
      'Named by an agent’s `ramFile`. A Resource Access Manifest in the JSON form of the RAM proposal, kept beside an agent instead of writing its RAM in the front matter.',
    schema: ResourceAccessManifest,
    perLanguage: true,
  },
  {
    title: 'Release history',
    location: 'content/releases/<slug>.json',
    intro:
      'Written by `npm run release`, kept in git, read by the build: each version an agent was released with and the RAM it published, oldest first ([releases](../releases.md)). A widening under an unchanged `version` fails the build.',
    schema: ReleaseHistorySchema,
    perLanguage: false,
  },
];

type Json = Record<string, unknown>;

function asJson(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

/**
 * The registry `z.toJSONSchema` reads metadata from: zod's global one, with `examples` renamed
 * `x-examples`, because the input side of a transforming schema (`httpsUrl.transform(…)`) drops `examples`.
 */
const metadataWithExamples = {
  get(schema: z.core.$ZodType): z.core.GlobalMeta | undefined {
    const meta = z.globalRegistry.get(schema);
    if (!meta || meta.examples === undefined) return meta;
    const { examples, ...rest } = meta;
    return { ...rest, 'x-examples': examples };
  },
} as unknown as z.core.$ZodRegistry<z.core.GlobalMeta>;

/** The JSON Schema of the input side of `schema`; refinements and transforms do not show. */
function jsonSchemaOf(schema: z.ZodType): Json {
  return z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    reused: 'inline',
    metadata: metadataWithExamples,
  }) as Json;
}

/** The examples given to a field's schema, if any. */
function givenExamples(node: Json): unknown[] | undefined {
  const examples = node['x-examples'];
  return Array.isArray(examples) && examples.length > 0 ? examples : undefined;
}

/** The alternatives of a node (`anyOf`/`oneOf`), or the node itself. */
function variants(node: Json): Json[] {
  const list = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
  if (!Array.isArray(list)) return [node];
  return list.map(asJson).filter((v): v is Json => v !== undefined && v.type !== 'null');
}

function typeOf(node: Json): string {
  const alternatives = variants(node);
  if (alternatives.length > 1 || alternatives[0] !== node) return alternatives.map(typeOf).join(' or ');
  if (Array.isArray(node.enum)) return `one of ${node.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (node.const !== undefined) return JSON.stringify(node.const);
  if (node.type === 'array') {
    const items = asJson(node.items);
    const min = typeof node.minItems === 'number' && node.minItems > 0 ? ` (at least ${node.minItems})` : '';
    return `list${min} of ${items ? typeOf(items) : 'any'}`;
  }
  if (node.type === 'object') {
    const values = asJson(node.additionalProperties);
    if (!node.properties && values) return `map of name → ${typeOf(values)}`;
    if (!node.properties && !values) return 'object (any members)';
    return 'object';
  }
  if (node.type === 'string' && typeof node.format === 'string') return `string (${node.format})`;
  if (typeof node.type === 'string') return node.type;
  return 'any';
}

function isMap(node: Json): boolean {
  return node.type === 'object' && !node.properties;
}

/** An example derived from the schema when none is given: enums, booleans, lists and objects. */
function derivedExample(node: Json): unknown {
  const examples = givenExamples(node);
  if (examples) return examples[0];
  if (node.default !== undefined) return node.default;
  const alternatives = variants(node);
  if (alternatives[0] !== node) return alternatives.length > 0 ? derivedExample(alternatives[0]!) : undefined;
  if (Array.isArray(node.enum))
    return node.enum.find((v) => typeof v !== 'string' || !v.endsWith('_UNSPECIFIED')) ?? node.enum[0];
  if (node.type === 'boolean') return true;
  if (node.type === 'array') {
    const item = asJson(node.items) ? derivedExample(asJson(node.items)!) : undefined;
    return item === undefined ? undefined : [item];
  }
  const properties = asJson(node.properties);
  if (node.type === 'object' && properties) {
    const required = new Set((node.required as string[] | undefined) ?? []);
    const names = Object.keys(properties);
    // Required members only, unless there are none: an example stays short and valid.
    const chosen = required.size > 0 ? names.filter((n) => required.has(n)) : names.slice(0, 1);
    const out: Json = {};
    for (const name of chosen) {
      const value = derivedExample(asJson(properties[name])!);
      if (value !== undefined) out[name] = value;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return undefined;
}

function rowsOf(
  node: Json,
  prefix: string,
  inheritedSpec: string | undefined,
  out: FieldRow[],
  perLanguage: boolean,
): void {
  for (const alternative of variants(node)) {
    const spec = typeof alternative.spec === 'string' ? alternative.spec : inheritedSpec;
    if (alternative.type === 'array') {
      const items = asJson(alternative.items);
      if (items) rowsOf(items, `${prefix}[]`, spec, out, perLanguage);
      continue;
    }
    const properties = asJson(alternative.properties);
    if (!properties) {
      const values = asJson(alternative.additionalProperties);
      if (values && prefix !== '') {
        // A map whose values are texts given per language: the value gets a row of its own.
        if (perLanguage && values.localized === true) out.push(valueRow(values, `${prefix}.<name>`, spec));
        rowsOf(values, `${prefix}.<name>`, spec, out, perLanguage);
      }
      continue;
    }
    const required = new Set((alternative.required as string[] | undefined) ?? []);
    for (const [name, raw] of Object.entries(properties)) {
      const field = asJson(raw)!;
      const path = prefix === '' ? name : `${prefix}.${name}`;
      const fieldSpec = typeof field.spec === 'string' ? field.spec : spec;
      const given = givenExamples(field) !== undefined;
      const leaf = variants(field)[0] ?? field;
      const localized = perLanguage && field.localized === true;
      out.push({
        path,
        type: localized ? perLanguageType(field) : typeOf(field),
        required: required.has(name),
        default: field.default,
        description: typeof field.description === 'string' ? field.description : undefined,
        example: derivedExample(field),
        exampleGiven: given,
        spec: fieldSpec,
        needsExample:
          (leaf.type === 'string' && !Array.isArray(leaf.enum)) ||
          leaf.type === 'number' ||
          leaf.type === 'integer' ||
          isMap(leaf),
        perLanguage: localized,
      });
      rowsOf(field, path, fieldSpec, out, perLanguage);
    }
  }
}

/** The type of a text given per language: its own type, or a map of language tag → that type. */
function perLanguageType(node: Json): string {
  const own = typeOf(node);
  return `${own}, or map of language → ${own} (per language)`;
}

/** The row of a map's value that is a text given per language (`scopes.<name>`). */
function valueRow(node: Json, path: string, spec: string | undefined): FieldRow {
  return {
    path,
    type: perLanguageType(node),
    required: false,
    description: typeof node.description === 'string' ? node.description : undefined,
    example: derivedExample(node),
    exampleGiven: givenExamples(node) !== undefined,
    spec: typeof node.spec === 'string' ? node.spec : spec,
    needsExample: true,
    perLanguage: true,
  };
}

/**
 * Every field of `schema`, depth first, in the order the schema declares them. With `perLanguage`, the
 * texts marked `PER_LANGUAGE` say that they may be given per language.
 */
export function referenceRows(schema: z.ZodType, perLanguage = false): FieldRow[] {
  const out: FieldRow[] = [];
  rowsOf(jsonSchemaOf(schema), '', undefined, out, perLanguage);
  return out;
}

/**
 * The fields of every {@link REFERENCE_SECTIONS} schema that lack a description, a specification or (for
 * strings, numbers and maps) an example, as `"<section>: <path> (no description)"` lines; empty when the
 * reference is complete.
 */
export function missingReferenceParts(): string[] {
  const missing: string[] = [];
  for (const section of REFERENCE_SECTIONS) {
    for (const row of referenceRows(section.schema, section.perLanguage)) {
      const lacks = [
        row.description ? undefined : 'description',
        row.spec ? undefined : 'spec',
        row.needsExample && !row.exampleGiven ? 'example' : undefined,
      ].filter(Boolean);
      if (lacks.length > 0) missing.push(`${section.title}: ${row.path} (no ${lacks.join(', no ')})`);
    }
  }
  return missing;
}

function exampleBlock(row: FieldRow): string {
  if (row.example === undefined) return '';
  const name = row.path.split('.').at(-1)!.replace(/\[\]$/, '');
  const key = name === '<name>' ? 'name' : name;
  const yamlText = stringify({ [key]: row.example }, { lineWidth: 0 }).trimEnd();
  return yamlText.includes('\n')
    ? `\n\n\`\`\`yaml\n${yamlText}\n\`\`\``
    : `\n\nExample: \`${yamlText.replace(/`/g, '\\`')}\``;
}

/**
 * The file name of `section`'s page under docs/reference/: its title in lower case, words joined by `-`
 * (`publisher.yaml` → `publisher-yaml.md`, `RAM file` → `ram-file.md`).
 */
export function referencePageName(section: ReferenceSection): string {
  return `${section.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}.md`;
}

/**
 * docs/reference.md as Markdown (not yet formatted by Prettier): the index of the field reference, which
 * explains how to read a field's entry and links to one page per file of {@link REFERENCE_SECTIONS}
 * (docs/reference/<page>, {@link referencePageName}), to the error codes (docs/reference/errors.md) and to
 * the command line (docs/reference/cli.md).
 */
export function renderReference(): string {
  const parts: string[] = [
    '# Field reference',
    '',
    'Every field of every file a publisher writes, generated from the schemas `npm run check` validates',
    'with (`src/core/schema/*.ts`) by `npm run reference`, one page per file. Do not edit these pages: edit',
    'the `.meta()` of the field and run `npm run reference`.',
    '',
    'A path such as `skills[].id` names the `id` of each item of the list `skills`; `<name>` stands for a',
    'name the publisher chooses (a map key). "From" names the specification the field comes from: A2A',
    '(the A2A v1.0 AgentCard; v0.3 where said), the RAM proposal (the Resource Access Manifest for the',
    'AgentCard), the IETF ARD draft (draft-bu-dawn-ard-discovery-00) or DESIGN.md (ardsite’s own settings).',
    '',
    'A type that ends in "(per language)" is a text people read: write it in the default language, or, on a',
    'site with `languages:` (publisher.yaml), as a map of language → text, `{ en: Books flights., pt-BR:',
    'Reserva voos. }`, which must hold the default language ([languages](languages.md)). The cards and',
    'ard.json carry the default language’s text; the pages of each language show its own.',
    '',
    ...REFERENCE_SECTIONS.map((s) => `- [${s.title}](reference/${referencePageName(s)}): \`${s.location}\``),
    '',
    'Also generated from the code: [the error codes](reference/errors.md) every check, the build and',
    '`verify` report, and [the command line](reference/cli.md).',
  ];
  return `${parts.join('\n')}\n`;
}

/**
 * The page of `section` under docs/reference/ as Markdown (not yet formatted by Prettier): one entry per
 * field with its type, whether it is required, its default, its description, its specification and an
 * example.
 */
export function renderReferencePage(section: ReferenceSection): string {
  const parts: string[] = [
    `# ${section.title}`,
    '',
    `\`${section.location}\`. ${section.intro}`,
    '',
    'Generated by `npm run reference` from the schemas; how to read an entry: [the field reference](../reference.md).',
  ];
  for (const row of referenceRows(section.schema, section.perLanguage)) {
    const facts = [
      `Type: ${row.type}`,
      row.required ? 'required' : 'optional',
      row.default !== undefined ? `default: \`${JSON.stringify(row.default)}\`` : undefined,
      row.spec ? `from: ${row.spec}` : undefined,
    ].filter(Boolean);
    parts.push(
      '',
      `## \`${row.path}\``,
      '',
      `${row.description ?? '(no description)'}`,
      '',
      `${facts.join(' · ')}${exampleBlock(row)}`,
    );
  }
  return `${parts.join('\n')}\n`;
}
