/**
 * `npm run import`: an existing A2A AgentCard (v0.2, v0.3, v1.0 or hybrid; camelCase or snake_case)
 * turned into the files of an ardsite project: `content/agents/<slug>.md` and, for the card's Resource
 * Access Manifest (the RAM proposal; at the top level as `resourceAccessManifest` or in an extension's
 * `params`), one `content/resources/<id>.yaml` per Resource with its Operations. Every value ardsite can
 * express is kept; what is dropped or changed is listed with its reason, in the result and as comments
 * at the top of the agent file.
 */
import { pathSlugProblem } from '../project/path-slug.js';
import { isDeepStrictEqual } from 'node:util';
import { stringify } from 'yaml';
import { camelKeys, isRecord, type JsonRecord } from '../a2a/a2a-forms.js';
import { ramOfExtensionParams } from '../a2a/card.js';
import { ArdsiteError } from '../util/errors.js';
import { Operation, Resource, ResourceAccess } from '../schema/ram.js';
import {
  capabilitiesOf,
  ImportNotes,
  interfacesOf,
  mediaTypes,
  requirementsOf,
  securitySchemesOf,
  skillsOf,
  urlField,
  type ImportNote,
} from './agent-fields.js';
import { refuseTemplateAddresses, resolveRelativeAddresses } from './card-addresses.js';
import { foreignAddresses, sitesInWords, type ForeignAddress, type PublisherSite } from './card-origin.js';
import { foreignEntryFile } from './foreign-entry.js';
import { otherFieldNote } from './other-fields.js';

/** Options of {@link importAgentCard}. */
export interface ImportOptions {
  /** The slug of the agent file; default: the card's name in lower case, words joined by `-`. */
  slug?: string;
  /** Where the card came from (a file path or URL), written in the agent file's comments. */
  source: string;
  /**
   * The importing publisher (content/publisher.yaml `domain`, `organizationUrl`, `namespace`,
   * `contactEmail`): a card with an address on another site is then listed as their entry. Without it,
   * the card is taken as the publisher's own.
   */
  publisher?: PublisherSite & { namespace: string; contactEmail?: string };
  /** The https URL the card was read from and the exact bytes read, when it was read from a URL. */
  readFrom?: { url: string; bytes: Uint8Array };
  /** The entry the manifest at the card's origin gives for it (src/core/import/their-entry.ts). */
  theirEntry?: JsonRecord;
  /** What a relative address of the card is resolved against; default: `readFrom.url`. */
  baseUrl?: string;
  /** Take another publisher's card over as the publisher's own agent, signed with its key (`--as-own`). */
  asOwn?: boolean;
}

/** What {@link importAgentCard} made. */
export interface ImportResult {
  /** `agent`: an agent the publisher signs; `entry`: another publisher's card, listed as their entry. */
  kind: 'agent' | 'entry';
  slug: string;
  /**
   * Project-relative path → file text: the agent file and one file per resource of its RAM, or the one
   * entry file (`content/entries/<slug>.yaml`).
   */
  files: Map<string, string>;
  /** What the operator must know before publishing: whose card it is, what signing it would claim. */
  warnings: string[];
  /** Fields of the card the agent file does not carry, and why. */
  dropped: ImportNote[];
  /** Fields kept in another form, and how. */
  changed: ImportNote[];
}

/** The top-level card fields the import reads (the others are dropped as unknown). */
const CARD_FIELDS = new Set([
  'name',
  'description',
  'version',
  'protocolVersion',
  'url',
  'preferredTransport',
  'additionalInterfaces',
  'supportedInterfaces',
  'interfaces',
  'provider',
  'iconUrl',
  'documentationUrl',
  'capabilities',
  'securitySchemes',
  'security',
  'securityRequirements',
  'defaultInputModes',
  'defaultOutputModes',
  'skills',
  'supportsAuthenticatedExtendedCard',
  'supportsExtendedAgentCard',
  'signatures',
  'resourceAccessManifest',
]);

/**
 * A file-name-safe slug (src/core/project/path-slug.ts): lower case, runs of other characters as `-`, no leading
 * `.` or `-`, at most 128 characters; `agent` when nothing is left.
 */
export function slugOf(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[-._]+|-+$/g, '')
      .slice(0, 128) || 'agent'
  );
}

function hasSnakeKeys(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasSnakeKeys);
  if (!isRecord(value)) return false;
  return Object.entries(value).some(
    ([k, v]) => /_[a-z0-9]/.test(k) || (k !== 'metadata' && k !== 'scopes' && hasSnakeKeys(v)),
  );
}

function looksLikeRam(value: unknown): value is JsonRecord {
  return (
    isRecord(value) && ['resources', 'operations', 'resourceAccesses'].some((k) => Array.isArray(value[k]))
  );
}

interface RamParts {
  resourceFiles: Map<string, string>;
  accesses: JsonRecord[];
  topLevel: boolean;
}

/** The card's RAM (extension params first, else the top-level member), split into ardsite's files. */
function ramOf(card: JsonRecord, notes: ImportNotes): RamParts | undefined {
  const extensions =
    isRecord(card.capabilities) && Array.isArray(card.capabilities.extensions)
      ? card.capabilities.extensions
      : [];
  let fromExtension: JsonRecord | undefined;
  extensions.forEach((ext: unknown, i) => {
    if (!isRecord(ext)) return;
    const params = camelKeys(ext.params);
    if (looksLikeRam(params) && !fromExtension) fromExtension = params;
    else
      notes.drop(
        `capabilities.extensions[${i}]`,
        `extension ${JSON.stringify(ext.uri)}: ardsite writes a card's extensions itself (the RAM one and its ARD entry one); others cannot be declared in an agent file`,
      );
  });
  const topLevel = looksLikeRam(card.resourceAccessManifest)
    ? (camelKeys(card.resourceAccessManifest) as JsonRecord)
    : undefined;
  const ram = fromExtension ?? topLevel;
  if (!ram) return undefined;
  // The extension carries ardsite's own members beside the RAM (skill map, permission sets, page facts);
  // the top-level copy is the RAM alone, as verify compares them (src/core/verify/card-checks.ts).
  if (fromExtension && topLevel && !isDeepStrictEqual(ramOfExtensionParams(fromExtension), topLevel))
    notes.drop('resourceAccessManifest', 'differs from the RAM in the extension; the extension’s is kept');

  const resources = new Map<string, JsonRecord>();
  (Array.isArray(ram.resources) ? ram.resources : []).forEach((r: unknown, i) => {
    const parsed = Resource.safeParse(r);
    if (parsed.success) resources.set(parsed.data.id, { ...(r as JsonRecord), operations: [] });
    else notes.drop(`ram.resources[${i}]`, parsed.error.issues[0]?.message ?? 'not a RAM Resource');
  });
  const operations = new Set<string>();
  (Array.isArray(ram.operations) ? ram.operations : []).forEach((o: unknown, i) => {
    const parsed = Operation.safeParse(o);
    const owner = parsed.success ? resources.get(parsed.data.resource) : undefined;
    if (!parsed.success || !owner)
      return notes.drop(
        `ram.operations[${i}]`,
        parsed.success
          ? `names resource "${parsed.data.resource}", which the RAM does not define`
          : (parsed.error.issues[0]?.message ?? 'not a RAM Operation'),
      );
    const { resource: _resource, ...rest } = o as JsonRecord;
    (owner.operations as JsonRecord[]).push(rest);
    operations.add(parsed.data.id);
  });
  const skillsOfAccess = new Map<string, string[]>();
  if (isRecord(ram.skillAccesses))
    for (const [skill, ids] of Object.entries(ram.skillAccesses))
      for (const id of Array.isArray(ids) ? ids : [])
        skillsOfAccess.set(String(id), [...(skillsOfAccess.get(String(id)) ?? []), skill]);
  const accesses: JsonRecord[] = [];
  (Array.isArray(ram.resourceAccesses) ? ram.resourceAccesses : []).forEach((a: unknown, i) => {
    const parsed = ResourceAccess.safeParse(a);
    if (!parsed.success || !operations.has(parsed.data.operation))
      return notes.drop(
        `ram.resourceAccesses[${i}]`,
        parsed.success
          ? `names operation "${parsed.data.operation}", which the RAM does not define`
          : (parsed.error.issues[0]?.message ?? 'not a RAM ResourceAccess'),
      );
    const skills = skillsOfAccess.get(parsed.data.id);
    accesses.push({ ...(a as JsonRecord), ...(skills ? { skills } : {}) });
  });
  const resourceFiles = new Map<string, string>();
  for (const [id, resource] of resources) {
    if ((resource.operations as JsonRecord[]).length === 0) delete resource.operations;
    resourceFiles.set(
      `content/resources/${slugOf(id)}.yaml`,
      `# Imported by npm run import: a Resource of an agent's RAM (the RAM proposal).\n${stringify(resource, { lineWidth: 0 })}`,
    );
  }
  return { resourceFiles, accesses, topLevel: topLevel !== undefined };
}

function comments(notes: ImportNotes, source: string, warnings: readonly string[]): string {
  const lines = [`# Imported by npm run import from ${source}`];
  for (const w of warnings) lines.push(`# Warning: ${w}`);
  for (const n of notes.changed) lines.push(`# Changed: ${n.field}: ${n.reason}`);
  for (const n of notes.dropped) lines.push(`# Not kept: ${n.field}: ${n.reason}`);
  return `${lines.map((l) => l.replace(/\n/g, ' ')).join('\n')}\n`;
}

/**
 * Imports `input`, a parsed AgentCard (A2A v0.3 §5.5, v1.0 `AgentCard`). A card with an address on
 * another site than the publisher's (src/core/import/card-origin.ts) becomes an entry of theirs that
 * points at it (DESIGN.md §1), unless `asOwn`; any other card becomes an agent file and its resources.
 * @throws ArdsiteError `IMPORT_NOT_A_CARD` when it is not an object with a `name`, or has no interface
 *   ardsite can publish or no skill it can keep; `IMPORT_TEMPLATE_URL` when an address is a template
 *   (`https://<HOST>/…`); `IMPORT_RELATIVE_URL` when an interface address is relative and there is no
 *   base URL to resolve it against.
 */
export function importAgentCard(input: unknown, options: ImportOptions): ImportResult {
  if (!isRecord(input) || typeof input.name !== 'string' || input.name.trim() === '')
    throw new ArdsiteError(
      'IMPORT_NOT_A_CARD',
      `${options.source} is not an A2A AgentCard: a JSON object with a "name"`,
    );
  const notes = new ImportNotes();
  if (hasSnakeKeys(input)) notes.change('(names)', 'snake_case names read as their camelCase A2A names');
  const card = camelKeys(input) as JsonRecord;
  const slug = options.slug ?? slugOf(card.name as string);
  const slugProblem = pathSlugProblem(slug);
  if (slugProblem !== undefined) throw new ArdsiteError('IMPORT_NOT_A_CARD', `--slug ${slugProblem}`);
  refuseTemplateAddresses(card, options.source);
  const base = options.baseUrl ?? options.readFrom?.url;
  if (base) resolveRelativeAddresses(card, base, options.source, notes);
  const foreign = options.publisher ? foreignAddresses(card, options.publisher, options.readFrom?.url) : [];
  if (foreign.length > 0 && !options.asOwn) return foreignEntry(input, card, slug, foreign, options);
  // Without a base, a relative interface address is an error (naming it) rather than a silent drop.
  if (!base) resolveRelativeAddresses(card, undefined, options.source, notes);
  const warnings = foreign.length > 0 ? [takenOverWarning(card, foreign, options.publisher!.domain)] : [];

  const front: JsonRecord = { name: card.name };
  front.description =
    typeof card.description === 'string' && card.description.trim() !== '' ? card.description : card.name;
  if (front.description === card.name && card.description !== card.name)
    notes.change('description', 'absent: the name is used');
  front.version = typeof card.version === 'string' && card.version !== '' ? card.version : '1.0.0';
  if (front.version !== card.version) notes.change('version', 'absent: 1.0.0 is used');
  const documentationUrl = urlField(card.documentationUrl, 'documentationUrl', notes);
  if (documentationUrl) front.documentationUrl = documentationUrl;
  const iconUrl = urlField(card.iconUrl, 'iconUrl', notes);
  if (iconUrl) front.iconUrl = iconUrl;
  if (isRecord(card.provider)) {
    const url = urlField(card.provider.url, 'provider.url', notes);
    if (url && typeof card.provider.organization === 'string')
      front.provider = { organization: card.provider.organization, url };
    else
      notes.drop(
        'provider',
        'an AgentProvider needs an organization and an https url; the publisher is the provider instead',
      );
  }
  const interfaces = interfacesOf(card, notes);
  if (interfaces.length === 0)
    throw new ArdsiteError(
      'IMPORT_NOT_A_CARD',
      `${options.source} names no interface ardsite can publish (an https URL, or host:port for GRPC)${whyNot(notes, /interfaces|^url$/i)}`,
    );
  front.interfaces = interfaces;
  const capabilities = capabilitiesOf(card, notes);
  if (capabilities) front.capabilities = capabilities;
  const schemes = securitySchemesOf(card, notes);
  if (schemes) front.securitySchemes = schemes;
  const requirements = requirementsOf(card, '', schemes, notes);
  if (requirements) front.securityRequirements = requirements;
  for (const side of ['defaultInputModes', 'defaultOutputModes'] as const) {
    front[side] = mediaTypes(card[side], side, notes) ?? ['text/plain'];
    if (!Array.isArray(card[side]) || (front[side] as string[]).length === 0)
      notes.change(side, 'absent: text/plain is used');
  }
  const skills = skillsOf(card, schemes, notes);
  if (skills.length === 0)
    throw new ArdsiteError(
      'IMPORT_NOT_A_CARD',
      `${options.source} has no skill ardsite can keep${whyNot(notes, /^skills\[\d+\]$/)}`,
    );
  front.skills = skills;
  const ram = ramOf(card, notes);
  if (ram && ram.accesses.length > 0) {
    front.resourceAccesses = ram.accesses;
    if (!ram.topLevel) front.ram = { topLevel: false };
  } else {
    // The card says nothing of what the agent touches; the pages would say it touches nothing.
    notes.change(
      'resourceAccessManifest',
      'absent: the pages will say this agent uses none of the user’s accounts and no outside service; if it does, declare each use under resourceAccesses',
    );
  }
  if (card.signatures !== undefined)
    notes.drop('signatures', 'ardsite signs the card it builds with the site’s own key');
  for (const key of Object.keys(card))
    if (!CARD_FIELDS.has(key))
      for (const note of otherFieldNote(key, card[key], slug, options.publisher?.contactEmail))
        notes.drop(note.field, note.reason);

  const body = `${front.description as string}\n`;
  const agent = `---\n${comments(notes, options.source, warnings)}${stringify(front, { lineWidth: 0 })}---\n\n${body}`;
  const files = new Map<string, string>([
    [`content/agents/${slug}.md`, agent],
    ...(ram?.resourceFiles ?? []),
  ]);
  return { kind: 'agent', slug, files, warnings, dropped: notes.dropped, changed: notes.changed };
}

/** The dropped fields whose path matches `field`, as `: <field>: <reason>; …` for an error message. */
function whyNot(notes: ImportNotes, field: RegExp): string {
  const found = notes.dropped.filter((n) => field.test(n.field));
  return found.length > 0 ? `: ${found.map((n) => `${n.field}: ${n.reason}`).join('; ')}` : '';
}

/** The warning of `--as-own`: whose card it was, and what signing it claims. */
function takenOverWarning(card: JsonRecord, foreign: readonly ForeignAddress[], domain: string): string {
  const provider = isRecord(card.provider) ? card.provider.organization : undefined;
  return `taken over as your own (--as-own): ${typeof provider === 'string' ? `the card names ${JSON.stringify(provider)} as its provider and ` : ''}its addresses are on other sites than ${domain}: ${sitesInWords(foreign)}; the build will sign it with your key as ${domain}'s own agent. Do so only if you run it, or they agreed`;
}

/** The default for another publisher's card: an entry of theirs that points at it (DESIGN.md §1). */
function foreignEntry(
  input: JsonRecord,
  card: JsonRecord,
  slug: string,
  foreign: readonly ForeignAddress[],
  options: ImportOptions,
): ImportResult {
  const publisher = options.publisher!;
  const made = foreignEntryFile({
    input,
    card,
    slug,
    source: options.source,
    ...(options.readFrom ? { readFrom: options.readFrom } : {}),
    ...(options.theirEntry ? { theirEntry: options.theirEntry } : {}),
    foreign,
    publisher,
  });
  const warning = `another publisher's card: its addresses are on other sites than ${publisher.domain}: ${sitesInWords(foreign)}. Listed as their entry ${made.identifier} in ${made.file}, pointing at their card${options.readFrom ? '' : ' (inline, as it was read from a file)'}; ${made.ownIdentifier ? 'its identifier names your domain, as their address names no domain, so the build signs this listing' : 'never signed by you'}. To take it over as your own agent, signed with your key, import it again with --as-own`;
  return {
    kind: 'entry',
    slug,
    files: new Map([[made.file, made.text]]),
    warnings: [warning],
    dropped: [],
    changed: [],
  };
}
