/**
 * One agent file of the content folder (`content/agents/<slug>.md`, DESIGN.md §1): its front matter, its
 * Markdown body and its RAM parts (`ramFile`, inline `resources`, `resourceAccesses`).
 */
import path from 'node:path';
import matter from 'gray-matter';
import type { z } from 'zod';
import { type Diagnostic } from '../util/errors.js';
import { AgentFrontMatter } from '../schema/agent.js';
import {
  ResourceAccess,
  ResourceAccessManifest,
  ResourceFile,
  type ResourceAccessInput,
  type ResourceInput,
} from '../schema/ram.js';
import { rewriteA2aSpellings } from './a2a-spellings.js';
import { formatBytes } from './bounds.js';
import { markdownNestingDiagnostic } from './markdown-nesting.js';
import { validate } from '../model/issues.js';
import type { AgentAccess, AgentModel } from '../model/content.js';
import { normalizeRamKeys } from './normalize.js';
import type { RamCatalog } from './ram-catalog.js';
import type { ContentReader } from './read.js';
import { parseJsonInto, parseYamlInto, rel } from './read.js';
import { detached, type SourceDoc } from '../model/source.js';
import { takeTextsPerLanguage, type TextContext } from './texts.js';

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
export type RawAgent = Pick<AgentModel, 'slug' | 'file' | 'source' | 'front' | 'body' | 'files' | 'accesses'>;

/**
 * An agent whose front matter has errors: it is not built, but the RAM parts that validate on their own
 * are read, so that their references are checked in the same run and the resources they use do not
 * look unused (DESIGN.md §1: every error of every file in one run).
 */
export type InvalidAgent = Pick<AgentModel, 'slug' | 'file' | 'accesses'> & {
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

/**
 * Reads one agent file (`content/agents/<slug>.md` at `absFile`, DESIGN.md §1): gray-matter splits the
 * front matter from the Markdown body, `yaml` parses the front matter with positions, zod validates it
 * (texts per language taken into `texts`), and its RAM (`ramFile`, inline `resources`, `resourceAccesses`)
 * is read, the resources going into `catalog`. Every problem goes to `texts.diagnostics` with the file and
 * line.
 *
 * @returns the agent; an {@link InvalidAgent} when its front matter does not validate (its RAM parts are
 *   still read); `undefined` when the file cannot be read or has no usable front matter. Never throws on
 *   bad input.
 */
export async function loadAgent(
  reader: ContentReader,
  root: string,
  absFile: string,
  catalog: RamCatalog,
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
  // Without a second "---" line, gray-matter reads the whole file as front matter, and the first
  // Markdown line is then reported as broken YAML: say what is missing instead.
  if (!/(^|\n)---/.test(text.slice(text.indexOf('\n') + 1))) {
    diagnostics.push({
      code: 'FRONT_MATTER_MISSING',
      severity: 'error',
      message:
        'the front matter opened by "---" on line 1 is never closed: end it with a second "---" line before the Markdown text',
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
  // An error, and the rest of the agent is still checked: the build stops before any page is rendered.
  const bodyLine = text.slice(0, text.length - split.content.length).split('\n').length;
  const nested = markdownNestingDiagnostic(split.content, reader.limits, file, bodyLine - 1);
  if (nested) diagnostics.push(nested);
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
  catalog: RamCatalog,
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
    ...(a.neededScope ? { neededScope: a.neededScope } : {}),
    origin: { source, path: p },
  };
}
