/**
 * Loads `content/` (DESIGN.md §1): fast-glob finds the files, gray-matter splits agent Markdown, the
 * `yaml` library parses YAML and JSON with positions, zod 4 validates, and the RAM catalog is merged
 * across files with the deep-equal rule. Every problem of every file is collected; nothing stops at the
 * first one.
 */
import path from 'node:path';
import fg from 'fast-glob';
import matter from 'gray-matter';
import type { z } from 'zod';
import { formatPath, type Diagnostic } from '../errors.js';
import { withoutUndefined } from '../json.js';
import { canonicalJson } from '../trust/jcs.js';
import { AgentFrontMatter } from '../schema/agent.js';
import { OtherEntryFile } from '../schema/entry.js';
import { Publisher, type PublisherConfig } from '../schema/publisher.js';
import {
  ResourceAccess,
  ResourceAccessManifest,
  ResourceFile,
  type OperationInput,
  type Ram,
  type RamOperation,
  type RamResource,
  type ResourceAccessInput,
  type ResourceInput,
} from '../schema/ram.js';
import { outsideMessage, scanPublicFolder } from '../project-jail.js';
import { parseAirUrn } from '../urn.js';
import { rawLanguageSettings, type LanguageSettings } from '../languages.js';
import { issuesToDiagnostics, suggest } from './issues.js';
import {
  languageFiles,
  readLanguageBodies,
  takeTextsPerLanguage,
  TextTable,
  type TextContext,
} from './texts.js';
import type {
  AgentAccess,
  AgentModel,
  CatalogOperation,
  CatalogResource,
  ContentModel,
  OtherEntryModel,
  Origin,
} from './model.js';
import { rewriteA2aSpellings } from './a2a-spellings.js';
import { formatBytes } from './bounds.js';
import { sitePathProblem } from './file-checks.js';
import { normalizeRamKeys } from './normalize.js';
import { ContentReader, parseJsonInto, parseYamlInto, rel } from './read.js';
import { detached, type SourceDoc } from './source.js';

/** Options of {@link loadContent}. */
export interface LoadOptions {
  /** Absolute project root; `content/` and `public/` are resolved against it. */
  root: string;
  /** Content folder relative to `root` (default `content`). */
  contentDir?: string;
}

/** What {@link loadContent} returns: the model when the publisher file is usable, and every finding. */
export interface LoadResult {
  model: ContentModel | undefined;
  diagnostics: Diagnostic[];
}

function toRamResource(r: ResourceInput): RamResource {
  return withoutUndefined({
    id: r.id,
    interactionProtocol: r.interactionProtocol,
    owner: r.owner,
    displayName: r.displayName,
    description: r.description,
    developerDocumentationUrl: r.developerDocumentationUrl,
    spec: r.spec ? withoutUndefined(r.spec) : undefined,
  });
}

function toRamOperation(o: OperationInput): RamOperation {
  return withoutUndefined({
    id: o.id,
    resource: o.resource,
    description: o.description,
    developerDocumentationUrl: o.developerDocumentationUrl,
    apiOperationSpec: o.apiOperationSpec ? withoutUndefined(o.apiOperationSpec) : undefined,
  });
}

/** The shared RAM catalog being assembled, with the merge rule of DESIGN.md §1. */
class Catalog {
  readonly resources = new Map<string, CatalogResource>();
  readonly operations = new Map<string, CatalogOperation>();
  constructor(
    private readonly diagnostics: Diagnostic[],
    /** The texts in other languages: two definitions must give the same ones. */
    private readonly texts: TextTable,
  ) {}

  /**
   * Adds `item` under `id`. The RAM fields (`ram`) of two definitions must be deep-equal; an
   * authoring-only field (one of `extras`) given by one side only is taken from that side, and conflicts
   * when both give it differently.
   */
  private merge<T extends { origin: Origin }>(
    map: Map<string, T>,
    kind: 'resource' | 'operation',
    id: string,
    item: T,
    ram: (t: T) => unknown,
    extras: ReadonlyArray<keyof T>,
    textFields: readonly string[],
  ): void {
    const existing = map.get(id);
    if (!existing) {
      map.set(id, item);
      return;
    }
    const here = item.origin;
    const there = existing.origin;
    // A resource file is one resource: its path is the whole document.
    const path = formatPath(here.path) || '(document)';
    if (here.source === there.source) {
      this.diagnostics.push(
        here.source.diagnostic(
          {
            code: 'RAM_DUPLICATE_ID',
            severity: 'error',
            message: `${kind} id "${id}" is defined twice in this file`,
            path: formatPath([...here.path, 'id']),
          },
          [...here.path, 'id'],
        ),
      );
      return;
    }
    const extraConflict = extras.some(
      (extra) =>
        existing[extra] !== undefined && item[extra] !== undefined && existing[extra] !== item[extra],
    );
    // Texts in other languages are authoring data too: one side's are taken, two different ones conflict.
    const textConflict = this.texts.conflicts(here, there, textFields);
    if (!extraConflict && !textConflict && canonicalJson(ram(existing)) === canonicalJson(ram(item))) {
      for (const extra of extras)
        if (existing[extra] === undefined && item[extra] !== undefined) existing[extra] = item[extra];
      this.texts.copy(here, there, textFields);
      return;
    }
    const thereLine = there.source.locate(there.path)?.line;
    this.diagnostics.push(
      here.source.diagnostic(
        {
          code: 'RAM_CONFLICTING_DEFINITION',
          severity: 'error',
          message: `${kind} "${id}" is also defined in ${there.source.file}${thereLine ? `:${thereLine}` : ''} with different content; make the two definitions equal or keep one`,
          path,
        },
        here.path,
      ),
    );
  }

  addResource(input: ResourceInput, origin: Origin): void {
    const item: CatalogResource = { resource: toRamResource(input), origin };
    if (input.manageAccessUrl) item.manageAccessUrl = input.manageAccessUrl;
    if (input.specFile) item.specFile = input.specFile;
    if (input.specDigest) item.specDigest = input.specDigest;
    this.merge(
      this.resources,
      'resource',
      input.id,
      item,
      (r) => r.resource,
      ['manageAccessUrl', 'specFile', 'specDigest'],
      ['displayName', 'description'],
    );
  }

  addOperation(input: OperationInput, origin: Origin): void {
    const item: CatalogOperation = { operation: toRamOperation(input), origin };
    if (input.readOnly !== undefined) item.readOnly = input.readOnly;
    this.merge(
      this.operations,
      'operation',
      input.id,
      item,
      (o) => o.operation,
      ['readOnly'],
      ['description'],
    );
  }

  /** Adds a resource file's resource and its nested operations (`resource` implied). */
  addResourceWithOperations(
    input: ResourceInput & { operations?: Array<Omit<OperationInput, 'resource'> & { resource?: string }> },
    source: SourceDoc,
    basePath: PropertyKey[],
  ): void {
    const { operations, ...resource } = input;
    this.addResource(resource, { source, path: basePath });
    (operations ?? []).forEach((op, i) => {
      const opPath = [...basePath, 'operations', i];
      if (op.resource !== undefined && op.resource !== input.id) {
        this.diagnostics.push(
          source.diagnostic(
            {
              code: 'RAM_DANGLING_RESOURCE',
              severity: 'error',
              message: `an operation nested under resource "${input.id}" names resource "${op.resource}"`,
              path: formatPath([...opPath, 'resource']),
            },
            [...opPath, 'resource'],
          ),
        );
      }
      this.addOperation({ ...op, resource: input.id }, { source, path: opPath });
    });
  }
}

/**
 * Parses `value` with `schema`, reporting issues against `source` at `basePath`. Returns the parsed
 * value, or `undefined` after pushing the diagnostics.
 */
function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  source: SourceDoc,
  diagnostics: Diagnostic[],
  basePath: PropertyKey[] = [],
): z.output<S> | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  diagnostics.push(...issuesToDiagnostics(result.error.issues, schema, value, source, basePath));
  return undefined;
}

async function loadPublisher(
  reader: ContentReader,
  root: string,
  contentDir: string,
  diagnostics: Diagnostic[],
  texts: TextTable,
): Promise<{ publisher?: PublisherConfig; source?: SourceDoc; settings: LanguageSettings }> {
  const file = path.join(contentDir, 'publisher.yaml');
  const text = await reader.read(file);
  const fallback: LanguageSettings = { language: 'en' };
  if (text === undefined) return { settings: fallback };
  const source = parseYamlInto(rel(root, file), text, diagnostics, reader.limits);
  if (!source) return { settings: fallback };
  // The languages as written: this very file may give its texts per language (DESIGN.md §9).
  const settings = rawLanguageSettings(source.value);
  const value = takeTextsPerLanguage(source.value, Publisher, source, {
    settings,
    table: texts,
    diagnostics,
  });
  const publisher = validate(Publisher, value, source, diagnostics);
  if (!publisher) return { source, settings };
  // With `languages:` and no `language`, the first of them is the default.
  if (publisher.languages && (source.value as Record<string, unknown>).language === undefined)
    publisher.language = publisher.languages[0]!;
  reader.limits = publisher.limits;
  reader.jail = { root, allowOutside: publisher.allowOutside };
  const expected = `https://${publisher.domain}/`;
  if (publisher.siteUrl !== expected) {
    // The same origin spelt another way (no final slash, capitals) needs only the spelling fixed.
    const spelling = URL.canParse(publisher.siteUrl) && new URL(publisher.siteUrl).href === expected;
    diagnostics.push(
      source.diagnostic(
        {
          code: 'SITE_URL_NOT_ROOT',
          severity: 'error',
          message: spelling
            ? `siteUrl must be written exactly "${expected}" (lower case, ending with "/"), the form the manifest and the DID are made from`
            : `siteUrl must be exactly "${expected}": ARD (/.well-known/ard.json) and did:web (/.well-known/did.json) are read from the root of the domain's origin, so a site on a sub-path (such as a GitHub project page) or on another host cannot carry them. Serve the site from the root of ${publisher.domain}, or change domain.`,
          path: 'siteUrl',
        },
        ['siteUrl'],
      ),
    );
  }
  return { publisher, source, settings: { language: publisher.language, languages: publisher.languages } };
}

/** Normalises the RAM parts of an agent's front matter (snake_case accepted, DESIGN.md §1). */
function normalizeAgentFront(raw: unknown, source: SourceDoc, diagnostics: Diagnostic[]): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const out: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const [snake, camel] of [
    ['resource_accesses', 'resourceAccesses'],
    ['ram_file', 'ramFile'],
  ] as const) {
    if (snake in out) {
      if (camel in out) {
        diagnostics.push(
          source.diagnostic(
            {
              code: 'RAM_CASE_CONFLICT',
              severity: 'error',
              message: `"${snake}" and "${camel}" are the same field written twice; keep one`,
              path: snake,
            },
            [snake],
          ),
        );
      } else out[camel] = out[snake];
      delete out[snake];
    }
  }
  for (const key of ['resources', 'resourceAccesses'] as const) {
    if (key in out) out[key] = normalizeRamKeys(out[key], source, [key], diagnostics);
  }
  // Other A2A spellings of card fields: one error each, saying what to write, and rewritten.
  return rewriteA2aSpellings(out, source, diagnostics);
}

/** An agent as read from its files, before its RAM closure and URN are computed. */
type RawAgent = Pick<AgentModel, 'slug' | 'file' | 'source' | 'front' | 'body' | 'files' | 'accesses'>;

/**
 * An agent whose front matter has errors: it is not built, but the RAM parts that validate on their own
 * are read, so that their references are checked in the same run and the resources they use do not
 * look unused (DESIGN.md §1: every error of every file in one run).
 */
type InvalidAgent = Pick<AgentModel, 'slug' | 'file' | 'accesses'> & {
  invalid: true;
  /** The `operation` of every access item, valid or not: what the author meant the agent to use. */
  mentionedOperations: string[];
};

/** The RAM parts of an agent's front matter, each item kept with its index (for its line). */
interface AgentRamParts {
  ramFile?: string;
  resources: Array<[index: number, resource: ResourceInput]>;
  resourceAccesses: Array<[index: number, access: ResourceAccessInput]>;
}

/**
 * The RAM parts of front matter that does not validate as a whole: the `ramFile` when it is a string,
 * and every resource and access that validates on its own (the others were reported with the whole).
 */
function validRamParts(front: unknown): AgentRamParts {
  const record = (front ?? {}) as Record<string, unknown>;
  const valid = <S extends z.ZodType>(schema: S, list: unknown): Array<[number, z.output<S>]> =>
    (Array.isArray(list) ? list : []).flatMap((item: unknown, i) => {
      const parsed = schema.safeParse(item);
      return parsed.success ? [[i, parsed.data] as [number, z.output<S>]] : [];
    });
  return {
    ...(typeof record.ramFile === 'string' && record.ramFile !== '' ? { ramFile: record.ramFile } : {}),
    resources: valid(ResourceFile, record.resources),
    resourceAccesses: valid(ResourceAccess, record.resourceAccesses),
  };
}

async function loadAgent(
  reader: ContentReader,
  root: string,
  absFile: string,
  catalog: Catalog,
  texts: TextContext,
): Promise<RawAgent | InvalidAgent | undefined> {
  const diagnostics = texts.diagnostics;
  const file = rel(root, absFile);
  const slug = path.basename(absFile, '.md');
  const text = await reader.read(absFile);
  if (text === undefined) return undefined;
  if (!/^\uFEFF?---\r?\n/.test(text)) {
    diagnostics.push({
      code: 'FRONT_MATTER_MISSING',
      severity: 'error',
      message:
        'an agent file starts with YAML front matter between two "---" lines (name, description, version, interfaces, skills, …)',
      file,
      line: 1,
    });
    return undefined;
  }
  let split: { matter: string; content: string };
  try {
    // gray-matter only splits here; the YAML itself is parsed below with positions.
    split = matter(text, { engines: { yaml: () => ({}) } }) as unknown as { matter: string; content: string };
  } catch (error) {
    diagnostics.push({ code: 'YAML_INVALID', severity: 'error', message: (error as Error).message, file });
    return undefined;
  }
  const source = parseYamlInto(file, split.matter, diagnostics, reader.limits);
  if (!source) return undefined;
  const bodyBytes = Buffer.byteLength(split.content, 'utf8');
  if (bodyBytes > reader.limits.textBytes) {
    diagnostics.push({
      code: 'TEXT_TOO_LONG',
      severity: 'error',
      message: `the Markdown body is ${formatBytes(bodyBytes)} long; the limit is ${formatBytes(reader.limits.textBytes)} (limits.textBytes in content/publisher.yaml)`,
      file,
      line: text.slice(0, text.length - split.content.length).split('\n').length,
    });
    return undefined;
  }
  if (!/^[a-z0-9._-]+$/.test(slug)) {
    diagnostics.push({
      code: 'SCHEMA_INVALID_VALUE',
      severity: 'error',
      message: `the file name "${slug}.md" becomes the agent's URN and URL; it must match [a-z0-9._-]+`,
      file,
    });
  }
  const normalized = takeTextsPerLanguage(
    normalizeAgentFront(source.value, source, diagnostics),
    AgentFrontMatter,
    source,
    texts,
  );
  const front = validate(AgentFrontMatter, normalized, source, diagnostics);
  if (!front) {
    // The errors are reported; the parts that do not validate on their own were reported with them.
    const parts = validRamParts(normalized);
    const { accesses } = await loadAgentRam(reader, root, absFile, source, parts, catalog, texts);
    const items = (normalized as { resourceAccesses?: unknown } | null)?.resourceAccesses;
    const mentionedOperations = (Array.isArray(items) ? items : [])
      .map((item) => (item as { operation?: unknown } | null)?.operation)
      .filter((op): op is string => typeof op === 'string');
    // The accesses of its ramFile count too: its resources are not unused because the front matter erred.
    mentionedOperations.push(...accesses.map((a) => a.access.operation));
    return { slug, file, accesses, invalid: true, mentionedOperations };
  }
  const parts: AgentRamParts = {
    ...(front.ramFile === undefined ? {} : { ramFile: front.ramFile }),
    resources: (front.resources ?? []).map((r, i) => [i, r]),
    resourceAccesses: (front.resourceAccesses ?? []).map((a, i) => [i, a]),
  };
  const { files, accesses } = await loadAgentRam(reader, root, absFile, source, parts, catalog, texts);
  return { slug, file, source, front, body: detached(split.content), files, accesses };
}

/**
 * Reads the RAM of an agent (`content/agents/<slug>.md` at `absFile`, front matter `source`): its
 * `ramFile`, inline `resources` (added to `catalog`) and `resourceAccesses`. Returns the files read
 * (the agent's first) and its accesses, in order: the ramFile's, then the inline ones. A `ramFile` that
 * does not exist is reported at the agent's `ramFile` line.
 */
async function loadAgentRam(
  reader: ContentReader,
  root: string,
  absFile: string,
  source: SourceDoc,
  front: AgentRamParts,
  catalog: Catalog,
  texts: TextContext,
): Promise<{ files: string[]; accesses: AgentAccess[] }> {
  const diagnostics = texts.diagnostics;
  const files = [rel(root, absFile)];
  const accesses: AgentAccess[] = [];
  if (front.ramFile) {
    const ramAbs = path.resolve(path.dirname(absFile), front.ramFile);
    const ramRel = rel(root, ramAbs);
    const ramText = await reader.read(ramAbs, {
      source,
      path: ['ramFile'],
      label: `ramFile "${front.ramFile}" names`,
    });
    if (ramText !== undefined) {
      files.push(ramRel);
      const ramSource = parseJsonInto(ramRel, ramText, diagnostics, reader.limits);
      if (ramSource) {
        const ramValue = takeTextsPerLanguage(
          normalizeRamKeys(ramSource.value, ramSource, [], diagnostics),
          ResourceAccessManifest,
          ramSource,
          texts,
        );
        const ram = validate(ResourceAccessManifest, ramValue, ramSource, diagnostics);
        if (ram) {
          ram.resources?.forEach((r, i) =>
            catalog.addResource(r, { source: ramSource, path: ['resources', i] }),
          );
          ram.operations?.forEach((o, i) =>
            catalog.addOperation(o, { source: ramSource, path: ['operations', i] }),
          );
          ram.resourceAccesses?.forEach((a, i) =>
            accesses.push(toAgentAccess(a, ramSource, ['resourceAccesses', i])),
          );
        }
      }
    }
  }
  for (const [i, r] of front.resources) catalog.addResourceWithOperations(r, source, ['resources', i]);
  for (const [i, a] of front.resourceAccesses)
    accesses.push(toAgentAccess(a, source, ['resourceAccesses', i]));
  return { files, accesses };
}

function toAgentAccess(a: ResourceAccessInput, source: SourceDoc, p: PropertyKey[]): AgentAccess {
  return {
    access: {
      id: a.id,
      operation: a.operation,
      identityUsed: a.identityUsed,
      confirmationRequired: a.confirmationRequired ?? false,
      accessJustification: a.accessJustification,
      necessity: a.necessity,
    },
    skills: a.skills ?? [],
    origin: { source, path: p },
  };
}

/** ` (did you mean "<hint>"?)` for a suggestion, or nothing. */
function didYouMean(hint: string | undefined): string {
  return hint === undefined ? '' : ` (did you mean "${hint}"?)`;
}

/**
 * The RAM closure of one agent: exactly the resources and operations its accesses use, each once, in
 * order of first use (DESIGN.md §1). Dangling references are reported, not emitted.
 */
export function ramClosure(
  accesses: readonly AgentAccess[],
  resources: ReadonlyMap<string, CatalogResource>,
  operations: ReadonlyMap<string, CatalogOperation>,
  diagnostics: Diagnostic[],
): { ram: Ram; files: Set<string> } {
  const ram: Ram = { resources: [], operations: [], resourceAccesses: [] };
  const seenResources = new Set<string>();
  const seenOperations = new Set<string>();
  const files = new Set<string>();
  for (const { access, origin } of accesses) {
    const op = operations.get(access.operation);
    if (!op) {
      diagnostics.push(
        origin.source.diagnostic(
          {
            code: 'RAM_DANGLING_OPERATION',
            severity: 'error',
            message: `access "${access.id}" names operation "${access.operation}", which no resource file, ramFile or inline resource defines${didYouMean(suggest(access.operation, [...operations.keys()]))}`,
            path: formatPath([...origin.path, 'operation']),
          },
          [...origin.path, 'operation'],
        ),
      );
      continue;
    }
    ram.resourceAccesses.push(access);
    if (seenOperations.has(op.operation.id)) continue;
    seenOperations.add(op.operation.id);
    ram.operations.push(op.operation);
    files.add(op.origin.source.file);
    const res = resources.get(op.operation.resource);
    if (!res) continue; // reported once per operation by the checks
    if (seenResources.has(res.resource.id)) continue;
    seenResources.add(res.resource.id);
    ram.resources.push(res.resource);
    files.add(res.origin.source.file);
  }
  return { ram, files };
}

async function loadEntry(
  reader: ContentReader,
  root: string,
  absFile: string,
  domain: string | undefined,
  texts: TextContext,
): Promise<OtherEntryModel | undefined> {
  const diagnostics = texts.diagnostics;
  const file = rel(root, absFile);
  const text = await reader.read(absFile);
  if (text === undefined) return undefined;
  const source = parseYamlInto(file, text, diagnostics, reader.limits);
  if (!source) return undefined;
  const value = takeTextsPerLanguage(source.value, OtherEntryFile, source, texts);
  const entry = validate(OtherEntryFile, value, source, diagnostics);
  if (!entry) return undefined;
  const urn = parseAirUrn(entry.identifier);
  const own = typeof urn !== 'string' && urn.domain === domain;
  const model: OtherEntryModel = {
    slug: path.basename(absFile).replace(/\.ya?ml$/, ''),
    file,
    source,
    entry,
    own,
  };
  // A url that is not a plain site path (`/../../etc/hostname`) names no file: check reports it.
  if (entry.url?.startsWith('/') && sitePathProblem(entry.url) === undefined) {
    model.publicFile = `public${entry.url.split(/[?#]/)[0]}`;
  }
  return model;
}

/**
 * Loads and validates every file of the content folder (DESIGN.md §1). Never throws on bad input:
 * all problems come back as diagnostics; `model` is undefined only when the publisher file is unusable.
 */
export async function loadContent(options: LoadOptions): Promise<LoadResult> {
  const root = path.resolve(options.root);
  const contentDir = path.join(root, options.contentDir ?? 'content');
  const diagnostics: Diagnostic[] = [];
  const reader = new ContentReader(root, diagnostics);
  const table = new TextTable();
  const glob = (pattern: string) =>
    fg(pattern, { cwd: contentDir, absolute: true, onlyFiles: true }).then((f) => f.sort());
  const [publisherLoaded, markdownFiles, resourceFiles, entryFiles, nested] = await Promise.all([
    loadPublisher(reader, root, contentDir, diagnostics, table),
    glob('agents/*.md'),
    glob('resources/*.{yaml,yml}'),
    glob('entries/*.{yaml,yml}'),
    glob('{agents/*/**/*.md,resources/*/**/*.{yaml,yml},entries/*/**/*.{yaml,yml}}'),
  ]);
  // Only the files directly in each folder are read: one in a subfolder would vanish without a word.
  for (const absFile of nested) {
    const folder = path.relative(contentDir, absFile).split(path.sep)[0];
    diagnostics.push({
      code: 'CONTENT_IGNORED',
      severity: 'warning',
      message: `only the files directly in content/${folder}/ are read, not those in its subfolders: move this one up to publish it`,
      file: rel(root, absFile),
    });
  }

  // public/ is copied into the site as it is: a link in it that leaves the project would publish that file.
  for (const problem of scanPublicFolder(reader.jail).problems) {
    diagnostics.push({
      code: problem.real === undefined ? 'FILE_MISSING' : 'FILE_OUTSIDE_PROJECT',
      severity: 'error',
      message:
        problem.real === undefined
          ? 'this symbolic link in public/ leads to nothing'
          : `${outsideMessage(problem.file, problem.real)}; public/ is copied into the site, so it would be published`,
      file: problem.file,
    });
  }

  // Texts in other languages: per-language maps in any file, and content/agents/<slug>.<tag>.md bodies.
  const texts: TextContext = { settings: publisherLoaded.settings, table, diagnostics };
  const kinds = languageFiles(markdownFiles, texts.settings, (f) => rel(root, f), diagnostics);
  const agentFiles = kinds.agents;
  const catalog = new Catalog(diagnostics, table);
  for (const absFile of resourceFiles) {
    const file = rel(root, absFile);
    const text = await reader.read(absFile);
    if (text === undefined) continue;
    const source = parseYamlInto(file, text, diagnostics, reader.limits);
    if (!source) continue;
    const value = takeTextsPerLanguage(
      normalizeRamKeys(source.value, source, [], diagnostics),
      ResourceFile,
      source,
      texts,
    );
    const resource = validate(ResourceFile, value, source, diagnostics);
    if (resource) catalog.addResourceWithOperations(resource, source, []);
  }

  const rawAgents: RawAgent[] = [];
  const invalidAgents: InvalidAgent[] = [];
  for (const absFile of agentFiles) {
    const agent = await loadAgent(reader, root, absFile, catalog, texts);
    if (agent && 'invalid' in agent) invalidAgents.push(agent);
    else if (agent) rawAgents.push(agent);
  }
  await readLanguageBodies(reader, kinds.bodies, table, diagnostics);

  const domain = publisherLoaded.publisher?.domain;
  const entries: OtherEntryModel[] = [];
  for (const absFile of entryFiles) {
    const entry = await loadEntry(reader, root, absFile, domain, texts);
    if (entry) entries.push(entry);
  }

  // Every agent's RAM references are checked here, whether or not the site can be put together.
  const closures = rawAgents.map((raw) =>
    ramClosure(raw.accesses, catalog.resources, catalog.operations, diagnostics),
  );
  for (const raw of invalidAgents)
    ramClosure(raw.accesses, catalog.resources, catalog.operations, diagnostics);

  const { publisher, source: publisherSource } = publisherLoaded;
  if (!publisher || !publisherSource) return { model: undefined, diagnostics };

  const agents: AgentModel[] = rawAgents.map((raw, i) => {
    const { ram, files } = closures[i]!;
    const namespace = raw.front.namespace ?? publisher.namespace;
    const agent: AgentModel = {
      ...raw,
      files: [...new Set([...raw.files, ...[...files].sort()])],
      ram,
      namespace,
      identifier: `urn:air:${publisher.domain}:${namespace}:${raw.slug}`,
    };
    if (raw.accesses.some((a) => a.skills.length > 0)) {
      const map: Record<string, string[]> = {};
      for (const skill of raw.front.skills) {
        const ids = raw.accesses.filter((a) => a.skills.includes(skill.id)).map((a) => a.access.id);
        if (ids.length > 0) map[skill.id] = ids;
      }
      agent.skillAccesses = map;
    }
    return agent;
  });

  // Whatever the agents with errors mention counts as used.
  const usedByInvalidAgents = { operationIds: new Set<string>(), resourceIds: new Set<string>() };
  for (const raw of invalidAgents) {
    for (const id of raw.mentionedOperations) {
      const op = catalog.operations.get(id);
      if (!op) continue;
      usedByInvalidAgents.operationIds.add(id);
      usedByInvalidAgents.resourceIds.add(op.operation.resource);
    }
  }

  return {
    model: {
      root,
      publisher,
      publisherSource,
      agents,
      usedByInvalidAgents,
      agentFiles: agentFiles.map((f) => path.basename(f, '.md')),
      resources: catalog.resources,
      operations: catalog.operations,
      entries,
      texts: table,
    },
    diagnostics,
  };
}

/**
 * Loads and validates `content/publisher.yaml` alone (DESIGN.md §1), for commands that need the
 * publisher's settings but not the agents (`npm run serve` reads the `registry:` settings). Never throws
 * on bad input: problems come back as diagnostics, and `publisher` is undefined when the file is unusable.
 */
export async function loadPublisherFile(
  options: LoadOptions,
): Promise<{ publisher: PublisherConfig | undefined; diagnostics: Diagnostic[] }> {
  const root = path.resolve(options.root);
  const diagnostics: Diagnostic[] = [];
  const loaded = await loadPublisher(
    new ContentReader(root, diagnostics),
    root,
    path.join(root, options.contentDir ?? 'content'),
    diagnostics,
    new TextTable(),
  );
  return { publisher: loaded?.publisher, diagnostics };
}
