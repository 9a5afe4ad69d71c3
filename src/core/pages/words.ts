/**
 * From the RAM's enum values to the page words (DESIGN.md §6: "no enum names, only meanings"). The words
 * themselves live in one table per language (./words/en.ts, ./words/pt-BR.ts, shape {@link PageWords});
 * this module maps the RAM proposal’s enums to the table's entries, so a proto name can never leak into a page.
 */
import type { RamResource, RamResourceAccess } from '../schema/ram.js';
import type { PageWords } from '../i18n/words/index.js';

export {
  agentLanguage,
  agentWords,
  ENGLISH_WORDS,
  findWords,
  SUPPORTED_LANGUAGES,
  wordsFor,
  type ChangeWordsInput,
  type PageWords,
} from '../i18n/words/index.js';
export { capitalize } from '../i18n/words/locale.js';

/** How much an agent needs an access, in the page's words (RAM proposal `AccessNecessity`). */
export type NecessityLevel = 'required' | 'recommended' | 'optional';

/** Maps `AccessNecessity` to its page word. `*_UNSPECIFIED` is refused by the checks before pages render. */
export function necessityLevel(necessity: RamResourceAccess['necessity']): NecessityLevel {
  if (necessity === 'REQUIRED') return 'required';
  if (necessity === 'OPTIONAL') return 'optional';
  return 'recommended';
}

/** Whose account an access runs under (RAM proposal `IdentityType`): the visitor's, or the agent's own. */
export function actsAsYou(access: RamResourceAccess): boolean {
  return access.identityUsed === 'END_USER';
}

/** The section a resource belongs in (RAM proposal `ResourceOwner`): the visitor's own (2P) or outside (3P). */
export type OwnerGroup = 'yours' | 'outside';

/** Maps `ResourceOwner` to its page group. */
export function ownerGroup(resource: RamResource): OwnerGroup {
  return resource.owner === 'CONSUMER' ? 'yours' : 'outside';
}

/**
 * The "as whom" sentence of an access to a resource of `group`, in `w`'s language. One of the visitor's
 * own services reached with the agent's own account says so, since its section speaks of their accounts.
 */
export function asWhomText(access: RamResourceAccess, group: OwnerGroup, w: PageWords): string {
  if (actsAsYou(access)) return w.permissions.asYou;
  return group === 'yours' ? w.permissions.asItselfOnYours : w.permissions.asItself;
}

/** The "asks first" sentence of an access (`confirmationRequired`), in `w`'s language. */
export function asksFirstText(access: RamResourceAccess, w: PageWords): string {
  return access.confirmationRequired ? w.permissions.asksFirstYes : w.permissions.asksFirstNo;
}

/** What a resource is, by its `interactionProtocol` (the RAM proposal), in a few words of `w`'s language. */
export function resourceKindText(resource: RamResource, w: PageWords): string {
  switch (resource.interactionProtocol) {
    case 'MCP':
      return w.permissions.kind.MCP;
    case 'A2A':
      return w.permissions.kind.A2A;
    default:
      return w.permissions.kind.REST;
  }
}
