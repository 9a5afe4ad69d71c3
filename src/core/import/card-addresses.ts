/**
 * The addresses an imported A2A AgentCard gives (A2A v0.3 §5.5 `url`, `additionalInterfaces[].url`;
 * A2A v1.0 `supportedInterfaces[].url`; `provider.url`, `documentationUrl`, `iconUrl`), checked before
 * the card is turned into files: a template placeholder (`https://<LOOKER_URL>/…`) is an error naming the
 * field and value, and a relative address (`/api/a2a`) is resolved against the card's own URL (WHATWG
 * URL Standard §4.4, the basic URL parser with a base), or is an error when there is no base to resolve it
 * against.
 */
import { isRecord, type JsonRecord } from '../a2a/a2a-forms.js';
import { ArdsiteError } from '../util/errors.js';
import type { ImportNotes } from './agent-fields.js';

/** One address-valued field of a card: its path in the card (`supportedInterfaces[1].url`) and value. */
export interface CardAddress {
  field: string;
  value: string;
  /** True for the addresses an A2A client connects to (the interfaces), false for links. */
  isInterface: boolean;
}

/** A placeholder left in a template: `<NAME>`, `{name}`, `${NAME}`, `{{name}}`, or `<…>` percent-encoded. */
const PLACEHOLDER = /<[^<>]*>|\{[^{}]*\}|%3C[^%]*%3E/i;

/** A GRPC target `host:port`, which is neither absolute nor relative in URL terms (A2A v1.0 §5.6). */
const HOST_PORT = /^[A-Za-z0-9.-]+:\d{1,5}$/;

/**
 * Every string address of `card` (camelCase keys), in card order: interfaces first (v1.0
 * `supportedInterfaces`, or the draft's `interfaces`; the v0.3 `url` and `additionalInterfaces`), then
 * `provider.url`, `documentationUrl` and `iconUrl`. Never throws.
 */
export function cardAddresses(card: JsonRecord): CardAddress[] {
  const out: CardAddress[] = [];
  const add = (field: string, value: unknown, isInterface: boolean) => {
    if (typeof value === 'string') out.push({ field, value, isInterface });
  };
  for (const list of ['supportedInterfaces', 'interfaces', 'additionalInterfaces'] as const) {
    const items = card[list];
    if (Array.isArray(items))
      items.forEach((item: unknown, i) => isRecord(item) && add(`${list}[${i}].url`, item.url, true));
  }
  add('url', card.url, true);
  if (isRecord(card.provider)) add('provider.url', card.provider.url, false);
  add('documentationUrl', card.documentationUrl, false);
  add('iconUrl', card.iconUrl, false);
  return out;
}

/**
 * Refuses a card whose addresses are templates still to be filled in.
 * @throws ArdsiteError `IMPORT_TEMPLATE_URL` naming every such field and its value, and the placeholders.
 */
export function refuseTemplateAddresses(card: JsonRecord, source: string): void {
  const templates = cardAddresses(card).filter((a) => PLACEHOLDER.test(a.value));
  if (templates.length === 0) return;
  const placeholders = [
    ...new Set(templates.flatMap((a) => a.value.match(new RegExp(PLACEHOLDER, 'gi')) ?? [])),
  ];
  throw new ArdsiteError(
    'IMPORT_TEMPLATE_URL',
    `${source} is a template, not a published card: ${templates
      .map((a) => `${a.field} is "${a.value}"`)
      .join(
        '; ',
      )}. Replace ${placeholders.join(', ')} with the real values (or import the card from the address it is published at)`,
  );
}

/** True when `value` is a relative reference (`/api/a2a`, `a2a`, `//host/a2a`), not an absolute URL. */
function isRelative(value: string): boolean {
  if (HOST_PORT.test(value) || URL.canParse(value)) return false;
  return URL.canParse(value, 'https://base.invalid/');
}

/**
 * Resolves the card's relative addresses against `base` (the URL the card was read from, or the
 * operator's `--base-url`), in place, noting each; without a base, a relative interface address is an
 * error and a relative link is left for the URL checks to drop.
 * @throws ArdsiteError `IMPORT_RELATIVE_URL` naming every relative interface address and its value, when
 *   `base` is undefined.
 */
export function resolveRelativeAddresses(
  card: JsonRecord,
  base: string | undefined,
  source: string,
  notes: ImportNotes,
): void {
  const relative = cardAddresses(card).filter((a) => isRelative(a.value));
  if (relative.length === 0) return;
  if (base === undefined) {
    const interfaces = relative.filter((a) => a.isInterface);
    if (interfaces.length > 0)
      throw new ArdsiteError(
        'IMPORT_RELATIVE_URL',
        `${source}: ${interfaces.map((a) => `${a.field} "${a.value}"`).join(', ')} ${interfaces.length === 1 ? 'is a relative address' : 'are relative addresses'}, which a card read from a file has nothing to resolve against: import the card from its https URL, or pass --base-url https://<the host it is served from>/`,
      );
    return;
  }
  for (const address of relative) {
    const resolved = new URL(address.value, base).href;
    setAddress(card, address.field, resolved);
    notes.change(
      address.field,
      `the relative address "${address.value}" resolved against ${base}: ${resolved}`,
    );
  }
}

/** Writes `value` at `field` (a path {@link cardAddresses} gave) of `card`. */
function setAddress(card: JsonRecord, field: string, value: string): void {
  const item = /^(\w+)\[(\d+)\]\.url$/.exec(field);
  if (item) {
    ((card[item[1]!] as unknown[])[Number(item[2])] as JsonRecord).url = value;
  } else if (field === 'provider.url') (card.provider as JsonRecord).url = value;
  else card[field] = value;
}
