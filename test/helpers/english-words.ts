/**
 * The English sentences of the page word table (src/core/i18n/words/en.ts) that a page in another
 * language must not show: every string leaf, and what every function leaf writes around its inputs,
 * called with sample inputs that take each of its branches ({@link SAMPLES}). A function's output is cut
 * at its inputs (a marker for texts, the digits of numbers), so that what is left is the table's own
 * wording. Only pieces of two words or more that the other language's table does not write as well are
 * kept (a shared proper noun or "OAuth 2.0" is no leak).
 */
import type { ChangeWordsInput } from '../../src/core/i18n/words/change-input.js';
import { EN } from '../../src/core/i18n/words/en.js';

/** The text input of the samples: it cuts the outputs and never appears on a page. */
export const MARKER = 'QQQ';
const M = MARKER;

const change = (c: Partial<ChangeWordsInput>): ChangeWordsInput => ({
  kind: 'added',
  item: 'access',
  id: M,
  label: { whatItDoes: M, resource: M, owner: 'CONSUMER', actsAsYou: true, withoutAsking: true },
  ...c,
});

/** The changes `changes.sentence` is called with: one per branch of the English table. */
const CHANGES: ChangeWordsInput[] = [
  change({ item: 'resource', label: { resource: M, owner: 'THIRD_PARTY' } }),
  change({ item: 'resource', label: { resource: M, owner: 'CONSUMER' } }),
  change({ item: 'resource', kind: 'removed' }),
  change({ item: 'resource', kind: 'widened', field: 'owner', to: 'THIRD_PARTY' }),
  change({ item: 'resource', kind: 'narrowed', field: 'owner', to: 'CONSUMER' }),
  change({ item: 'resource', kind: 'reworded', field: 'description' }),
  change({ item: 'operation' }),
  change({ item: 'operation', kind: 'removed' }),
  change({ item: 'operation', kind: 'reworded', field: 'description' }),
  change({}),
  change({ label: { whatItDoes: M, owner: 'THIRD_PARTY', changesData: true, actsAsYou: false } }),
  change({ kind: 'removed' }),
  change({ kind: 'reworded' }),
  ...(['widened', 'narrowed'] as const).flatMap((kind) =>
    ['identityUsed', 'confirmationRequired', 'effect', 'operation', 'owner', 'other'].map((field) =>
      change({ kind, field }),
    ),
  ),
  change({ kind: 'widened', field: 'necessity', from: 'OPTIONAL', to: 'REQUIRED' }),
  change({ kind: 'widened', field: 'scope', from: [M], to: [M, M] }),
  change({ kind: 'narrowed', field: 'scope', from: [M, M], to: M }),
];

/** Sample arguments of every function of the word table, by its dotted path: each list is one call. */
export const SAMPLES: Readonly<Record<string, readonly unknown[][]>> = {
  'layout.writeTo': [[M]],
  'index.detailsLink': [[M]],
  'index.version': [[M]],
  'index.publishedByDomain': [[M]],
  'index.machineDescription': [[M]],
  'index.otherKind': [[M]],
  'footprint.yours': [[1], [7]],
  'footprint.outside': [[1], [7]],
  'footprint.join': [[[M, M]]],
  'agent.version': [[M]],
  'agent.permissionsLink': [[M]],
  'agent.permissionsLinkEmpty': [[M]],
  'agent.toUseSkill': [[M]],
  'agent.protocol': [[M]],
  'agent.authorizationCode': [
    [M, true],
    [M, false],
  ],
  'agent.deviceCode': [[M]],
  'agent.signInAsYou': [[[M]], [[M, M]]],
  'agent.implicit': [[M]],
  'agent.password': [[M]],
  'agent.clientCredentials': [[M]],
  'agent.metadataUrl': [[M]],
  'agent.apiKey': [[M, M]],
  'agent.bearer': [[M], [undefined]],
  'agent.http': [[M]],
  'agent.openIdConnect': [[M]],
  'agent.requirement': [
    [M, []],
    [M, [M, M]],
  ],
  'agent.requirementAnd': [[[M, M]]],
  'agent.needsOr': [[[M, M]]],
  'agent.requirementOne': [[M]],
  'agent.requirementMany': [[[M, M]]],
  'permissions.title': [[M]],
  'permissions.description': [[M]],
  'permissions.manageAccess': [[M]],
  'permissions.documentationOf': [[M]],
  'permissions.publishedBy': [[M]],
  'permissions.usedBy': [[[M]], [[M, M, M]]],
  'permissions.sameActionAs': [
    [M, 'you'],
    [M, 'itself'],
  ],
  'permissions.summaryYours': [
    [0, 0, 0, 0],
    [7, 7, 0, 0],
    [7, 0, 7, 0],
    [7, 3, 4, 0],
    [0, 0, 0, 1],
    [0, 0, 0, 7],
    [7, 3, 4, 1],
    [7, 7, 0, 7],
  ],
  'permissions.summaryOutside': [[0], [1], [7]],
  'permissions.summaryAsksFirst': [
    [0, 0],
    [0, 1],
    [1, 1],
    [0, 7],
    [7, 7],
    [3, 7],
  ],
  'permissions.summaryNecessity': [
    [1, 2, 3],
    [0, 2, 3],
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  'permissions.summaryHigherRisk': [[0], [1], [7]],
  'permissions.publisherGroupHeading': [[M]],
  'permissions.publisherGroupIntro': [[M]],
  'label.publisher': [[M]],
  'label.action': [
    [M, []],
    [M, [M, M]],
  ],
  'label.sendsTo': [[[M]], [[M, M]]],
  'grants.narrowerListed': [[M]],
  'grants.leavesOut': [[M]],
  'grants.scopeFor': [[[M]], [[M, M]]],
  'grants.alsoAllows': [[0], [1], [7]],
  'grants.broader': [
    [M, []],
    [M, [M, M]],
  ],
  'changes.heading': [[M]],
  'changes.intro': [[M, M]],
  'changes.historyVersion': [[M, M, M]],
  'changes.notice': [[M, M]],
  'changes.sentence': CHANGES.map((c) => [c]),
};

type Leaf = { path: string; value: unknown };

/** Every leaf of a word table (strings and functions), by dotted path; the `locale` helpers left out. */
export function leaves(table: object, prefix = ''): Leaf[] {
  const out: Leaf[] = [];
  for (const [key, value] of Object.entries(table)) {
    if (key === 'locale' && prefix === '') continue;
    const path = `${prefix}${key}`;
    if (typeof value === 'function' || typeof value === 'string') out.push({ path, value });
    else if (value !== null && typeof value === 'object') out.push(...leaves(value as object, `${path}.`));
  }
  return out;
}

/** The dotted paths of the functions of a word table. */
export function functionPaths(table: object): string[] {
  return leaves(table)
    .filter((l) => typeof l.value === 'function')
    .map((l) => l.path);
}

/** The pieces of `text` between its inputs (the marker and numbers) that hold two words or more. */
function pieces(text: string): string[] {
  return text
    .split(new RegExp(`${MARKER}|\\d+`))
    .map((p) => p.trim())
    .filter((p) => /\p{L}+[^\p{L}]+\p{L}+/u.test(p));
}

/**
 * What the leaves of `table` write, as the pieces to look for: a string whole, a function's outputs on the
 * samples cut at their inputs.
 */
function writings(table: object): string[] {
  return leaves(table).flatMap(({ path, value }) => {
    if (typeof value === 'string') return [value];
    const fn = value as (...args: unknown[]) => string;
    return (SAMPLES[path] ?? []).flatMap((args) => pieces(fn(...args)));
  });
}

/**
 * The English sentences (and sentence pieces) of the word table that `other` (another language's table of
 * the same shape) does not write too: what a page in that language must not show.
 */
export function englishSentences(other: object): string[] {
  const theirs = new Set(writings(other));
  return [...new Set(writings(EN))].filter((t) => /\S+ \S+/.test(t) && !theirs.has(t));
}
