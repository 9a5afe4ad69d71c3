/**
 * Another publisher's AgentCard, imported as what it is: an ARD entry the publisher lists
 * (`content/entries/<slug>.yaml`, DESIGN.md §1 "own and foreign entries") that points at their card, not
 * an agent the publisher signs. The entry's identifier names their domain (ARD draft §3.4), so the build
 * lists it as written and never signs it (ARD draft §3.5.1). Read from a URL, the entry carries that `url`
 * and the `digest` of the exact bytes read (ARD draft §3.2.3); read from a file, the card goes inline as
 * `data`, with ardsite's digest of inline data (sha256 over its RFC 8785 JCS).
 */
import { stringify } from 'yaml';
import { isRecord, type JsonRecord } from '../a2a/a2a-forms.js';
import { ENTRY_EXTENSION_URI } from '../a2a/card.js';
import { canonicalBytes } from '../trust/jcs.js';
import { sha256Digest } from '../ard/digest.js';
import { formatAirUrn, parseAirUrn } from '../ard/urn.js';
import { foreignDomain, sitesInWords, type ForeignAddress } from './card-origin.js';

/** The media type of an A2A AgentCard entry (ARD draft §3.2, DESIGN.md §2). */
const AGENT_CARD_TYPE = 'application/a2a-agent-card+json';

/** The namespace of an identifier made for another publisher's card, whose own namespace is not known. */
const FOREIGN_NAMESPACE = 'agents';

/** The members of their own entry kept as they wrote them, those an entry file may hold (DESIGN.md §1). */
const LISTED_AS_THEIRS = [
  'displayName',
  'type',
  'version',
  'description',
  'tags',
  'capabilities',
  'representativeQueries',
  'updatedAt',
  'metadata',
  'trustManifest',
  'trustManifests',
] as const;

/** What {@link foreignEntryFile} is given. */
export interface ForeignEntryInput {
  /** The card as read (its own field names), kept inline when it was read from a file. */
  input: JsonRecord;
  /** The same card with camelCase names (src/core/a2a/a2a-forms.ts `camelKeys`). */
  card: JsonRecord;
  slug: string;
  /** Where the card came from (a file path or URL), written in the file's comments. */
  source: string;
  /** The https URL the card was read from and the exact bytes read, when it was read from a URL. */
  readFrom?: { url: string; bytes: Uint8Array };
  /** The card's addresses on other sites (src/core/import/card-origin.ts), at least one. */
  foreign: readonly ForeignAddress[];
  /**
   * The entry their own manifest gives for this card (src/core/import/their-entry.ts): its identifier is
   * used, and its trustManifest(s) kept when its digest is that of the bytes read.
   */
  theirEntry?: JsonRecord;
  /** The publisher's `domain` and `namespace`, for the rare card whose other site is no FQDN. */
  publisher: { domain: string; namespace: string };
}

/** The entry file {@link foreignEntryFile} made. */
export interface ForeignEntryFile {
  /** Project-relative path: `content/entries/<slug>.yaml`. */
  file: string;
  text: string;
  identifier: string;
  /** True when the identifier names the publisher's own domain (their site is no FQDN): it is signed. */
  ownIdentifier: boolean;
}

/** The identifier the card names itself by, in ardsite's ARD-entry extension (ARD draft §4.3.1), if any. */
function declaredIdentifier(card: JsonRecord): string | undefined {
  const extensions =
    isRecord(card.capabilities) && Array.isArray(card.capabilities.extensions)
      ? card.capabilities.extensions
      : [];
  for (const ext of extensions)
    if (isRecord(ext) && ext.uri === ENTRY_EXTENSION_URI && isRecord(ext.params)) {
      const id = ext.params.identifier;
      if (typeof id === 'string' && typeof parseAirUrn(id) !== 'string') return id;
    }
  return undefined;
}

function strings(values: unknown[]): string[] {
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v.trim() !== ''))];
}

/** Builds the entry file of another publisher's card. Never throws. */
export function foreignEntryFile(given: ForeignEntryInput): ForeignEntryFile {
  const { card, slug, publisher } = given;
  const theirDomain = foreignDomain(given.foreign);
  const declared = declaredIdentifier(card);
  const declaredUrn = declared ? parseAirUrn(declared) : undefined;
  const theirs = given.theirEntry;
  const identifier = theirs
    ? (theirs.identifier as string)
    : declaredUrn && typeof declaredUrn !== 'string' && declaredUrn.domain !== publisher.domain
      ? declared!
      : formatAirUrn(
          theirDomain
            ? { domain: theirDomain, namespace: FOREIGN_NAMESPACE, name: slug }
            : { domain: publisher.domain, namespace: publisher.namespace, name: slug },
        );
  const ownIdentifier = identifier.split(':')[2] === publisher.domain;
  const skills = (Array.isArray(card.skills) ? card.skills : []).filter(isRecord);
  const entry: JsonRecord = { identifier, displayName: card.name, type: AGENT_CARD_TYPE };
  if (given.readFrom) {
    entry.url = given.readFrom.url;
    entry.digest = sha256Digest(given.readFrom.bytes);
  } else entry.digest = sha256Digest(canonicalBytes(given.input));
  if (typeof card.version === 'string' && card.version.trim() !== '') entry.version = card.version;
  if (typeof card.description === 'string' && card.description.trim() !== '')
    entry.description = card.description;
  const tags = strings(skills.flatMap((s) => (Array.isArray(s.tags) ? s.tags : [])));
  if (tags.length > 0) entry.tags = tags;
  const capabilities = strings(skills.map((s) => s.name ?? s.id));
  if (capabilities.length > 0) entry.capabilities = capabilities;
  const queries = strings(skills.flatMap((s) => (Array.isArray(s.examples) ? s.examples : []))).slice(0, 5);
  if (queries.length > 0) entry.representativeQueries = queries;
  if (!given.readFrom) entry.data = given.input;
  // Their entry for these very bytes is listed as they wrote it, with their signed statements
  // (DESIGN.md §1, ARD draft §3.5): a trustManifest's subject binds their type and version, not ours.
  const signed = theirs !== undefined && theirs.digest === entry.digest;
  if (signed) {
    for (const key of LISTED_AS_THEIRS)
      if (theirs[key] !== undefined) entry[key] = theirs[key];
      else if (key === 'version') delete entry.version;
  }
  const header = [
    `# Imported by npm run import from ${given.source}.`,
    `# Another publisher's card (on ${sitesInWords(given.foreign)}): listed in this site's manifest as theirs, pinned by digest,`,
    ownIdentifier
      ? `# under this site's domain, because their address names no domain an identifier can hold.`
      : theirs
        ? `# never signed by this site. Its identifier is the one their own ARD manifest gives${signed ? ', with their trustManifest' : ''}.`
        : `# never signed by this site. Its identifier names their domain; use the one their own ARD manifest gives, if they publish one.`,
    given.readFrom
      ? `# The digest is of the bytes read from url; when they change their card, import it again.`
      : `# Read from a file: the card is listed inline as data. Import it from its https URL to point at it instead.`,
  ];
  const text = `${header.map((l) => l.replace(/\n/g, ' ')).join('\n')}\n${stringify(entry, { lineWidth: 0 })}`;
  return { file: `content/entries/${slug}.yaml`, text, identifier, ownIdentifier };
}
