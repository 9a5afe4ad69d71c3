/**
 * Loads `content/` (DESIGN.md §1): fast-glob finds the files, gray-matter splits agent Markdown, the
 * `yaml` library parses YAML and JSON with positions, zod 4 validates, and the RAM catalog is merged
 * across files with the deep-equal rule. Every problem of every file is collected; nothing stops at the
 * first one.
 *
 * This module reads the publisher file and the other entries and puts the model together; an agent file
 * is read by ./agent-file.ts, the shared RAM catalog is ./ram-catalog.ts, and an agent's RAM closure
 * ./ram-closure.ts.
 */
import path from 'node:path';
import fg from 'fast-glob';
import { readYamlLeniently } from '../util/bounded-yaml.js';
import type { Diagnostic } from '../util/errors.js';
import { OtherEntryFile } from '../schema/entry.js';
import { Publisher, type PublisherConfig } from '../schema/publisher.js';
import { ResourceFile } from '../schema/ram.js';
import { projectSecrets, publicLinkDiagnostic, scanPublicFolder } from '../project/project-jail.js';
import { contentTrustDiagnostics, operatorTrust, projectJail } from '../trust/operator-trust.js';
import { parseAirUrn } from '../ard/urn.js';
import { rawLanguageSettings, type LanguageSettings } from '../i18n/languages.js';
import { loadAgent, type InvalidAgent, type RawAgent } from './agent-file.js';
import { validate } from '../model/issues.js';
import { languageFiles, readLanguageBodies, takeTextsPerLanguage, type TextContext } from './texts.js';
import { TextTable } from '../model/text-table.js';
import type { AgentModel, ContentModel, OtherEntryModel } from '../model/content.js';
import { sitePathProblem } from './file-checks.js';
import { normalizeRamKeys } from './normalize.js';
import { RamCatalog } from './ram-catalog.js';
import { ramClosure } from './ram-closure.js';
import { ContentReader, parseYamlInto, rel } from './read.js';
import type { SourceDoc } from '../model/source.js';

/** Options of {@link loadContent}. */
export interface LoadOptions {
  /** Absolute project root; `content/` and `public/` are resolved against it. */
  root: string;
  /** Content folder relative to `root` (default `content`). */
  contentDir?: string;
  /**
   * The operator's environment (default `process.env`): `ARDSITE_ALLOW_OUTSIDE`, `ARDSITE_TRUSTED_KEYS`,
   * `ARDSITE_SIGNING_KEY_FILE` (src/core/trust/operator-trust.ts).
   */
  env?: NodeJS.ProcessEnv;
}

/** What {@link loadContent} returns: the model when the publisher file is usable, and every finding. */
export interface LoadResult {
  model: ContentModel | undefined;
  diagnostics: Diagnostic[];
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

/** The `operations[].id` strings of a resource file's value, read loosely (the file did not validate). */
function operationIds(value: unknown): string[] {
  const operations = (value as { operations?: unknown } | null)?.operations;
  return (Array.isArray(operations) ? operations : [])
    .map((op) => (op as { id?: unknown } | null)?.id)
    .filter((id): id is string => typeof id === 'string');
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
  // Where reads may go is the operator's to say, never content's (DESIGN.md §10).
  const operator = operatorTrust(root, options.env);
  reader.jail = projectJail(root, operator);
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

  if (publisherLoaded.publisher && publisherLoaded.source)
    diagnostics.push(
      ...contentTrustDiagnostics(root, publisherLoaded.publisher, publisherLoaded.source, operator),
    );

  // public/ is copied into the site as it is: a link in it that leaves the project would publish that
  // file, and one to a secret of the project (.git, .env, the key) would publish the secret.
  const secrets = projectSecrets(root, [
    ...operator.keyFiles,
    ...(publisherLoaded.publisher?.signing.keyFile ? [publisherLoaded.publisher.signing.keyFile] : []),
  ]);
  for (const problem of scanPublicFolder(reader.jail, undefined, secrets).problems)
    diagnostics.push(publicLinkDiagnostic(problem));

  // Texts in other languages: per-language maps in any file, and content/agents/<slug>.<tag>.md bodies.
  const texts: TextContext = { settings: publisherLoaded.settings, table, diagnostics };
  const kinds = languageFiles(markdownFiles, texts.settings, (f) => rel(root, f), diagnostics);
  const agentFiles = kinds.agents;
  const catalog = new RamCatalog(diagnostics, table);
  // The operations of resource files with errors: an access to one is not reported again as dangling.
  const inBrokenFiles = new Set<string>();
  for (const absFile of resourceFiles) {
    const file = rel(root, absFile);
    const text = await reader.read(absFile);
    if (text === undefined) continue;
    const source = parseYamlInto(file, text, diagnostics, reader.limits);
    if (!source) {
      for (const id of operationIds(readYamlLeniently(text))) inBrokenFiles.add(id);
      continue;
    }
    const value = takeTextsPerLanguage(
      normalizeRamKeys(source.value, source, [], diagnostics),
      ResourceFile,
      source,
      texts,
    );
    const resource = validate(ResourceFile, value, source, diagnostics);
    if (resource) catalog.addResourceWithOperations(resource, source, []);
    else for (const id of operationIds(value)) inBrokenFiles.add(id);
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
    ramClosure(raw.accesses, catalog.resources, catalog.operations, diagnostics, inBrokenFiles),
  );
  for (const raw of invalidAgents)
    ramClosure(raw.accesses, catalog.resources, catalog.operations, diagnostics, inBrokenFiles);

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
      jail: reader.jail,
      operator,
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
