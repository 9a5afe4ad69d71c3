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
