/**
 * The plain words the pages use for the RAM's enum values (DESIGN.md §6: "no enum names, only
 * meanings"). Every visible sentence about a proto enum comes from here, so the pages and their tests
 * agree on one vocabulary, and a proto name can never leak into a page.
 */
import type { RamResource, RamResourceAccess } from '../schema/ram.js';

/** `count` followed by the singular or plural noun: `1 action`, `3 actions`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** Upper-cases the first letter of a sentence. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** How much an agent needs an access, in the page's words (seed 000 `AccessNecessity`). */
export type NecessityLevel = 'required' | 'recommended' | 'optional';

/** Maps `AccessNecessity` to its page word. `*_UNSPECIFIED` is refused by the checks before pages render. */
export function necessityLevel(necessity: RamResourceAccess['necessity']): NecessityLevel {
  if (necessity === 'REQUIRED') return 'required';
  if (necessity === 'OPTIONAL') return 'optional';
  return 'recommended';
}

/** What each necessity level means for the visitor, in words. */
export const NECESSITY_MEANING: Readonly<Record<NecessityLevel, string>> = {
  required: 'the agent cannot do its job without it.',
  recommended: 'the agent works without it, but important features will be missing or work much less well.',
  optional: 'only for an extra feature; the agent works fully without it.',
};

/** One sentence per necessity level: its label and what it means ("Required: the agent cannot …"). */
export const NECESSITY_EXPLANATION: Readonly<Record<NecessityLevel, string>> = {
  required: `Required: ${NECESSITY_MEANING.required}`,
  recommended: `Recommended: ${NECESSITY_MEANING.recommended}`,
  optional: `Optional: ${NECESSITY_MEANING.optional}`,
};

/** The label of a necessity level ("Required", …). */
export function necessityLabel(level: NecessityLevel): string {
  return capitalize(level);
}

/** Whose account an access runs under (seed 000 `IdentityType`): the visitor's, or the agent's own. */
export function actsAsYou(access: RamResourceAccess): boolean {
  return access.identityUsed === 'END_USER';
}

/**
 * The "as whom" sentence of an access to a resource of `group`. One of the visitor's own services reached
 * with the agent's own account says so, since its section speaks of the visitor's accounts.
 */
export function asWhomText(access: RamResourceAccess, group: OwnerGroup): string {
  if (actsAsYou(access)) return 'As you: it uses your own account, with your permissions.';
  return group === 'yours'
    ? 'As itself: this is one of your services, but the agent reaches it with its own account, not yours.'
    : 'As itself (its own account): it does not use your account.';
}

/** The "asks first" sentence of an access (`confirmationRequired`). */
export function asksFirstText(access: RamResourceAccess): string {
  return access.confirmationRequired
    ? 'Yes: it asks you every time before it does this.'
    : 'No: it does this without asking you first.';
}

/** The section a resource belongs in (seed 000 `ResourceOwner`): the visitor's own (2P) or outside (3P). */
export type OwnerGroup = 'yours' | 'outside';

/** Maps `ResourceOwner` to its page group. */
export function ownerGroup(resource: RamResource): OwnerGroup {
  return resource.owner === 'CONSUMER' ? 'yours' : 'outside';
}

/** The heading of each owner group (DESIGN.md §6). */
export const OWNER_GROUP_HEADING: Readonly<Record<OwnerGroup, string>> = {
  yours: 'Your accounts and data',
  outside: 'Outside services',
};

/** What a resource is, by its `interactionProtocol` (seed 000), in a few words. */
export function resourceKindText(resource: RamResource): string {
  switch (resource.interactionProtocol) {
    case 'MCP':
      return 'A tool made for AI agents (an MCP server).';
    case 'A2A':
      return 'Another AI agent, which this agent talks to (over A2A).';
    default:
      return 'A web service (reached through its web API).';
  }
}

const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

/** An ISO 8601 timestamp as a date in words ("22 November 2025", UTC); the input itself when it does not parse. */
export function formatDate(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : DATE_FORMAT.format(time);
}

/** The heading over the scopes of one of the visitor's own services (issue 15: the consent screen's words). */
export const ASKED_TO_ALLOW_HEADING = 'You will be asked to allow:';

/** Said of one of the visitor's own services when the agent needs no permission of theirs there. */
export const NOTHING_TO_ALLOW_TEXT =
  'You will not be asked to allow anything on this service: the agent does not use your account here.';

/** Said of one of the visitor's own services whose API description the publisher did not give. */
export const PERMISSION_UNKNOWN_TEXT =
  'The publisher has not given the description of this service’s API, so the exact permission you will be asked for is not known here.';

/** Shown for a permission whose description the service does not give. */
export const SCOPE_WITHOUT_DESCRIPTION = 'The service gives no description of this permission.';

/** How much else one permission allows besides what the agent says it does with it. */
export function alsoAllowsText(count: number): string {
  return count === 0
    ? 'This permission allows nothing more than what the agent says it does.'
    : `This permission also allows ${plural(count, 'other action')} on this service.`;
}

/** The label of the list of those other actions (shown on request). */
export const ALSO_ALLOWS_SUMMARY = 'Show what else it allows';

/** The warning when the agent's card asks for a broader permission than its declared actions need. */
export function broaderPermissionText(asked: string, needed: readonly string[]): string {
  const need =
    needed.length === 0
      ? 'its declared actions need no permission of yours here'
      : `its declared actions need only “${needed.join('”, “')}”`;
  return `The agent asks for “${asked}”, which allows more than it needs: ${need}.`;
}

/** The label of that warning. */
export const BROADER_PERMISSION_LABEL = 'Asks for more than it needs';

// --- What changed between two versions (DESIGN.md §9 "Releases", src/core/releases/compare.ts) -------

/** The shape of a RAM change the sentences below read (src/core/releases/compare.ts `RamChange`). */
export interface ChangeWordsInput {
  kind: 'added' | 'removed' | 'widened' | 'narrowed' | 'reworded';
  item: 'access' | 'resource' | 'operation';
  id: string;
  field?: string;
  from?: string | boolean | string[];
  to?: string | boolean | string[];
  label?: {
    whatItDoes?: string;
    resource?: string;
    owner?: string;
    actsAsYou?: boolean;
    withoutAsking?: boolean;
    changesData?: boolean;
  };
}

/** The heading of the permission page's newest changes: "What changed in 1.1.0". */
export function whatChangedHeading(version: string): string {
  return `What changed in ${version}`;
}

/** The sentence under it: since which version and date the changes count. */
export function whatChangedIntro(previousVersion: string, previousDate: string): string {
  return `Compared with version ${previousVersion} of ${formatDate(previousDate)}, this version:`;
}

/** The heading of the older changes. */
export const CHANGE_HISTORY_HEADING = 'Earlier changes';

/** One older version's line: "Version 1.1.0 (3 March 2026), compared with 1.0.0:". */
export function historyVersionText(version: string, date: string, previousVersion: string): string {
  return `Version ${version} (${formatDate(date)}), compared with ${previousVersion}:`;
}

/** The short notice on the agent page and the index while a version that gained access is new. */
export function newPermissionsNotice(version: string, date: string): string {
  return `New permissions in version ${version} (${formatDate(date)}).`;
}

/** The link text from that notice to the permission page's changes. */
export const NEW_PERMISSIONS_LINK = 'See what changed';

function quoted(text: string | undefined): string {
  const t = (text ?? '').replace(/\.$/, '');
  return t === '' ? 'an action' : `“${t}”`;
}

/** How an access acts, in words: "as you, without asking you first". */
function howItActs(label: NonNullable<ChangeWordsInput['label']>): string {
  const who = label.actsAsYou ? 'as you' : 'as itself';
  const ask = label.withoutAsking ? 'without asking you first' : 'asking you first every time';
  return `${who}, ${ask}`;
}

function where(label: NonNullable<ChangeWordsInput['label']>): string {
  const name = label.resource ? ` in ${label.resource}` : '';
  return label.owner === 'THIRD_PARTY' ? `${name} (an outside service)` : name;
}

const NECESSITY_WORD: Readonly<Record<string, string>> = {
  REQUIRED: 'required',
  RECOMMENDED: 'recommended',
  OPTIONAL: 'optional',
};

/**
 * One change in the page's plain words: no enum names, no ids except where an item has no words of its
 * own (an operation). Used by the permission page and by `npm run diff`.
 */
export function changeSentence(change: ChangeWordsInput): string {
  const label = change.label ?? {};
  const action = `${quoted(label.whatItDoes)}${where(label)}`;
  if (change.item === 'resource') {
    const name = label.resource ?? change.id;
    if (change.kind === 'added')
      return label.owner === 'THIRD_PARTY'
        ? `New outside service: ${name} now gets data from the agent.`
        : `New: it now reaches ${name}, one of your services.`;
    if (change.kind === 'removed') return `Removed: it no longer reaches ${name}.`;
    if (change.field === 'owner')
      return change.to === 'THIRD_PARTY'
        ? `${name} is now an outside service, not one of yours: your data goes out to it.`
        : `${name} is now one of your own services, not an outside one.`;
    return `Reworded: the ${change.field ?? 'text'} of ${name}.`;
  }
  if (change.item === 'operation') {
    if (change.kind === 'added') return `New action defined: ${change.id}.`;
    if (change.kind === 'removed') return `Action no longer defined: ${change.id}.`;
    return `Reworded: the ${change.field ?? 'text'} of the action ${change.id}.`;
  }
  const changes = label.changesData ? 'may change your data' : 'only reads data';
  switch (change.kind) {
    case 'added':
      return `New permission: ${action}. It ${changes}; it acts ${howItActs(label)}.`;
    case 'removed':
      return `Removed: it no longer does ${action}.`;
    case 'reworded':
      return `Reworded: why it does ${action}.`;
    default:
      break;
  }
  const wider = change.kind === 'widened';
  switch (change.field) {
    case 'identityUsed':
      return wider
        ? `The action ${action} now acts as you, with your account (before: as itself).`
        : `The action ${action} now acts as itself, no longer with your account.`;
    case 'confirmationRequired':
      return wider
        ? `The action ${action} is now done without asking you first (before: it asked you every time).`
        : `The action ${action} now asks you first every time.`;
    case 'necessity':
      return `The action ${action} is now ${NECESSITY_WORD[String(change.to)] ?? String(change.to)} (before: ${NECESSITY_WORD[String(change.from)] ?? String(change.from)}).`;
    case 'effect':
      return wider
        ? `The action ${action} may now change your data (before: it only read data).`
        : `The action ${action} now only reads data.`;
    case 'operation':
      return `The action ${action} now does another action than before.`;
    case 'owner':
      return wider
        ? `The action ${action} now sends your data to an outside service.`
        : `The action ${action} now stays with one of your own services.`;
    case 'scope': {
      const list = (v: unknown) => (Array.isArray(v) ? v.join(', ') : String(v));
      return wider
        ? `The action ${action} now asks for broader permission: ${list(change.to)} (before: ${list(change.from)}).`
        : `The action ${action} now asks for narrower permission: ${list(change.to)}.`;
    }
    default:
      return `The action ${action}: ${change.field ?? 'changed'}.`;
  }
}
