/**
 * Card members outside the A2A AgentCard (A2A v1.0 `AgentCard` has no `contact` and no `protocols`) that
 * an agent file cannot carry, each dropped with a note that says where ardsite keeps such a value: a
 * contact address in content/publisher.yaml `contactEmail` (one contact for the publisher's pages), an
 * MCP server as an entry of its own in content/entries/ (DESIGN.md §1; ARD draft §3.2 lists MCP servers
 * beside agents).
 */
import { isRecord } from '../a2a/a2a-forms.js';
import type { ImportNote } from './agent-fields.js';

const UNKNOWN = 'not an AgentCard field ardsite writes';

/** `value` when it is a non-empty string, else undefined. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function contactNotes(value: unknown, contactEmail: string | undefined): ImportNote[] {
  if (!isRecord(value)) return [{ field: 'contact', reason: UNKNOWN }];
  return Object.entries(value).map(([key, child]) => {
    const email = key === 'email' ? text(child) : undefined;
    if (!email) return { field: `contact.${key}`, reason: UNKNOWN };
    const now =
      contactEmail === undefined
        ? 'it has none: add contactEmail: ' + email
        : contactEmail === email
          ? `it is ${email} already`
          : `it is ${contactEmail}; the card gave ${email}`;
    return {
      field: 'contact.email',
      reason: `a card's contact is its publisher's, shown on every page: contactEmail in content/publisher.yaml holds it (${now})`,
    };
  });
}

function protocolNotes(value: unknown, slug: string): ImportNote[] {
  if (!isRecord(value)) return [{ field: 'protocols', reason: UNKNOWN }];
  const notes: ImportNote[] = [];
  for (const [name, child] of Object.entries(value)) {
    const serverUrl = name === 'mcp' && isRecord(child) ? text(child.serverUrl) : undefined;
    if (!serverUrl) {
      notes.push({ field: `protocols.${name}`, reason: UNKNOWN });
      continue;
    }
    notes.push({
      field: 'protocols.mcp.serverUrl',
      reason: `an MCP server (${serverUrl}) is listed as an entry of its own, not inside an agent: write content/entries/${slug}-mcp.yaml with its identifier, displayName, type (the media type of its server card) and the url of its server card (docs/reference.md, "Entries")`,
    });
    for (const key of Object.keys(child as object))
      if (key !== 'serverUrl') notes.push({ field: `protocols.mcp.${key}`, reason: UNKNOWN });
  }
  return notes;
}

/**
 * The notes for a top-level member `key` of a card that the agent file does not carry: for `contact`
 * and `protocols.mcp`, where the value belongs instead (`slug` names the entry file to write,
 * `contactEmail` is the publisher's, if set); for any other member, that it is not a card field.
 * Never throws.
 */
export function otherFieldNote(
  key: string,
  value: unknown,
  slug: string,
  contactEmail: string | undefined,
): ImportNote[] {
  if (key === 'contact') return contactNotes(value, contactEmail);
  if (key === 'protocols') return protocolNotes(value, slug);
  return [{ field: key, reason: UNKNOWN }];
}
