/**
 * `/llms.txt` (llmstxt.org; DESIGN.md §9 "Crawler files amended"): the site in the Markdown shape that
 * language models read. An H1 with the site's title, a blockquote with its summary, a paragraph on the
 * publisher and its signing key, then H2 sections whose items are links with notes: one section per
 * agent (its page, its permission page with what it may touch, its agent card), the other entries, the
 * machine-readable files, and an `Optional` section with the publisher's own links. On a site in several
 * languages a `Languages` section links each language's index; the rest is in English, with the
 * publisher's texts in the default language (those the cards carry).
 *
 * Everything comes from the content model through the pages' own view-models (./pages/index-page.ts,
 * ./pages/permissions.ts), so llms.txt says what the index and the permission pages say, in their words.
 * Lighthouse's `llms-txt` audit asks for an H1, at least one `[text](url)` link and 50 characters or more.
 */
import { pagesBase } from '../i18n/languages.js';
import { AI_CATALOG_PATH, DID_PATH, MANIFEST_PATH } from '../ard/well-known.js';
import { indexView } from './index-page.js';
import { agentPagePath, indexPagePath, pageTrees, permissionsPagePath } from '../site/page-paths.js';
import { permissionView, type ResourceView } from './permissions.js';
import { ENGLISH_WORDS, wordsFor } from './words.js';
import type { SiteBuild } from '../site/site-build.js';

/** Site path of llms.txt (llmstxt.org: `/llms.txt` at the root). */
export const LLMS_TXT_PATH = '/llms.txt';

/** What llms.txt is written from: the content model, the built agents and entries, the site's DID. */
export type LlmsTxtInput = Pick<SiteBuild, 'model' | 'agents' | 'otherEntries' | 'did' | 'registryEntry'> & {
  /** Site path of the sitemap, when the site has one. */
  sitemapPath?: string;
};

/** Text on one line: runs of white space (line breaks included) become one space. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Link text: one line, with the characters that would end or nest a Markdown link escaped. */
function linkText(text: string): string {
  return oneLine(text).replace(/[\\[\]]/g, (c) => `\\${c}`);
}

/** A link destination: spaces, parentheses and angle brackets percent-encoded (CommonMark §6.3). */
function linkUrl(url: string): string {
  return url.replace(/[\s()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/**
 * What llms.txt (llmstxt.org) says of the sitemap it links: true of ardsite's own site; the Astro
 * integration keeps it true in a host site's output, or rewords it (src/astro/merge-sitemap.ts).
 */
export const SITEMAP_ITEM_NOTE = 'Every page of this site.';

/** One item of a file list: `- [text](url): notes` (llmstxt.org). */
function item(text: string, url: string, notes?: string): string {
  return `- [${linkText(text)}](${linkUrl(url)})${notes ? `: ${oneLine(notes)}` : ''}`;
}

/** A sentence ending in a full stop (one is added when the text ends without punctuation). */
function sentence(text: string): string {
  const t = oneLine(text);
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/** How the agent uses one resource, in the permission page's words: as whom, its effect, asking first. */
function resourceUse(resource: ResourceView): string {
  const { accesses } = resource;
  const asYou = accesses.filter((a) => a.actsAsYou).length;
  const who =
    asYou === accesses.length
      ? 'as you'
      : asYou === 0
        ? 'with its own account'
        : 'as you and with its own account';
  const effect = accesses.some((a) => a.mayChangeData) ? 'may change data' : 'only reads';
  const asks = accesses.filter((a) => a.asksFirst).length;
  const asking =
    asks === accesses.length
      ? 'asks you first'
      : asks === 0
        ? 'does not ask first'
        : 'asks you first for some actions';
  return `${resource.displayName} (${who}, ${effect}, ${asking})`;
}

/** The notes of an agent's permission page link: what it may touch, grouped as the page groups it. */
function touchNotes(input: LlmsTxtInput, build: LlmsTxtInput['agents'][number]): string {
  const view = permissionView(build, input.model, ENGLISH_WORDS, undefined, 'summary');
  if (!view.hasAccess) return view.noAccessText;
  const parts = view.groups
    .filter((g) => g.resources.length > 0)
    .map((g) => `${g.heading}: ${g.resources.map(resourceUse).join('; ')}.`);
  const summary = (key: string) => view.summary.find((s) => s.key === key)?.text ?? '';
  return [...parts, summary('asks-first'), summary('higher-risk')].filter(Boolean).join(' ');
}

/**
 * The text of `/llms.txt` for a site (llmstxt.org format). Absolute links under `model.publisher.siteUrl`.
 * Pure and deterministic; linear in the number of agents, entries and accesses.
 */
export function llmsTxt(input: LlmsTxtInput): string {
  const { publisher } = input.model;
  // The index's title, description and other entries; its agents' lines (each a label made from the whole
  // permission view) are not read here: each agent's section below is made from its own view, once.
  const index = indexView({ ...input, agents: [] }, ENGLISH_WORDS);
  const url = (sitePath: string) => new URL(sitePath.replace(/^\//, ''), publisher.siteUrl).toString();
  const lines: string[] = [`# ${oneLine(index.title)}`, ''];
  lines.push(
    `> ${sentence(index.description ?? `The AI agents of ${publisher.organization}: what each one does, and what it may touch on your behalf`)}`,
    '',
  );
  const en = ENGLISH_WORDS.locale;
  const listed = [en.count(input.agents.length, { one: 'agent', other: 'agents' })];
  if (index.entries.length > 0)
    listed.push(en.count(index.entries.length, { one: 'other entry', other: 'other entries' }));
  lines.push(
    `${oneLine(publisher.organization)} lists ${listed.join(' and ')} here. Each agent has a page, a permission page that says in plain words which of your accounts and which outside services it may touch, as whom, and whether it asks you first, and an A2A agent card that carries its Resource Access Manifest. What an agent may touch is the publisher's own declaration, not an independent audit. The publisher signs its own entries in the ARD manifest with the key of ${input.did}.`,
    '',
  );

  for (const build of input.agents) {
    const { agent } = build;
    const name = agent.front.name;
    lines.push(`## ${oneLine(name)}`, '');
    lines.push(
      item(
        name,
        url(agentPagePath(agent.slug, pagesBase(publisher))),
        `${sentence(agent.front.description)} Version ${agent.front.version}.`,
      ),
    );
    lines.push(
      item(
        `What ${name} may touch`,
        url(permissionsPagePath(agent.slug, pagesBase(publisher))),
        touchNotes(input, build),
      ),
    );
    lines.push(
      item(
        `Agent card of ${name}`,
        build.cardUrl,
        agent.ram.resourceAccesses.length > 0
          ? 'A2A AgentCard (JSON) with its Resource Access Manifest, signed by the publisher.'
          : 'A2A AgentCard (JSON), signed by the publisher.',
      ),
    );
    lines.push('');
  }

  if (index.entries.length > 0) {
    lines.push('## Other entries', '');
    for (const e of index.entries) {
      const by = e.own
        ? ''
        : ` ${sentence(`Published by ${e.publisherDomain}, listed here but not signed by ${publisher.organization}`)}`;
      const notes = `${e.kind}.${e.description ? ` ${sentence(e.description)}` : ''}${by}`;
      lines.push(
        e.url
          ? item(e.displayName, new URL(e.url, publisher.siteUrl).toString(), notes)
          : item(e.displayName, url(MANIFEST_PATH), `${notes} Given inline in the ARD manifest.`),
      );
    }
    lines.push('');
  }

  // A site in several languages (DESIGN.md §9 "Languages"): where each language's pages are.
  const trees = pageTrees(publisher);
  if (trees.length > 1) {
    lines.push('## Languages', '');
    for (const tree of trees)
      lines.push(
        item(
          wordsFor(tree.language).layout.languageName,
          url(indexPagePath(tree.prefix)),
          tree.isDefault
            ? `The pages in ${tree.language}, the site's default language, which the links above lead to and the agent cards carry.`
            : `The same pages in ${tree.language}: the index, and each agent's page and permission page under ${tree.prefix}/agents/.`,
        ),
      );
    lines.push('');
  }

  lines.push('## Machine-readable files', '');
  lines.push(
    item(
      'ARD manifest',
      url(MANIFEST_PATH),
      'Every agent and entry of this site; the publisher signs its own (application/ard+json, IETF ARD draft).',
    ),
    item(
      'AI catalog',
      url(AI_CATALOG_PATH),
      'The same entries in the ARD v0.9 (ai-catalog) shape, for older readers. It carries no signatures: they are in the ARD manifest.',
    ),
    item(
      'DID document',
      url(DID_PATH),
      `The public keys of ${input.did}, which verify every signature of this site.`,
    ),
  );
  if (input.registryEntry && typeof input.registryEntry.url === 'string') {
    lines.push(
      item(
        String(input.registryEntry.displayName),
        input.registryEntry.url,
        'The lookup API of this site (ARD): POST /search, POST /explore and GET /agents under this base URI.',
      ),
    );
  }
  if (input.sitemapPath) lines.push(item('Sitemap', url(input.sitemapPath), SITEMAP_ITEM_NOTE));
  lines.push('');

  const optional = [
    item(publisher.organization, publisher.organizationUrl, 'The publisher.'),
    ...(publisher.privacyPolicyUrl ? [item('Privacy policy', publisher.privacyPolicyUrl)] : []),
    ...(publisher.termsUrl ? [item('Terms of service', publisher.termsUrl)] : []),
    ...(publisher.contactUrl ? [item('Contact', publisher.contactUrl)] : []),
    ...(publisher.contactEmail
      ? [item(`Email ${publisher.contactEmail}`, `mailto:${publisher.contactEmail}`)]
      : []),
  ];
  lines.push('## Optional', '', ...optional, '');
  return lines.join('\n');
}
