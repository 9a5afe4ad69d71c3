/**
 * The publisher's own texts on a page, in the page's language (DESIGN.md §9 "Languages"): the text the
 * publisher gave in that language (src/core/content/texts.ts), else the default language's text marked
 * with that language, so that the page can put it in an element with `lang` (HTML §3.2.6.2: a screen
 * reader then reads it with the right voice, and a translator leaves it alone).
 *
 * On a site in one language nothing is marked: every text is shown as written, in the language of its
 * pages (an agent's own `language` included).
 */
import type { AgentModel, ContentModel, OtherEntryModel } from '../model/content.js';
import type { SourceDoc } from '../model/source.js';
import type { TextValue } from '../model/text-table.js';
import { isMultilingual, siteLanguage } from '../i18n/languages.js';
import type { SecuritySchemeInput } from '../schema/security.js';
import type { RamOperation, RamResource } from '../schema/ram.js';

/** A publisher's text on a page: the text, and its language when that is not the page's. */
export interface PageText<T extends TextValue = string> {
  text: T;
  /** The BCP 47 tag of `text` when it is not in the page's language (an untranslated text); else absent. */
  lang?: string;
}

/** `{ [key]Lang: lang }` when `text` is marked, else `{}`: the view fields that carry a text's language. */
export function langField<K extends string>(
  key: K,
  text: PageText<TextValue>,
): Partial<Record<`${K}Lang`, string>> {
  return text.lang === undefined ? {} : ({ [`${key}Lang`]: text.lang } as Record<`${K}Lang`, string>);
}

/** The texts of one security scheme of an agent: its description and what each OAuth scope grants. */
export interface SchemeTexts {
  description?: PageText;
  /** Scope → what it grants (the first flow that names the scope gives it). */
  scopes: Map<string, PageText>;
}

/** What {@link PageTexts} reads of the content model. */
export type PageTextsModel = Pick<
  ContentModel,
  'publisher' | 'publisherSource' | 'texts' | 'resources' | 'operations'
>;

const accessesOf = new WeakMap<AgentModel, Map<string, AgentModel['accesses'][number]>>();

/** The publisher's texts of one page, in the page's language `language`. */
export class PageTexts {
  /** The page's language, or undefined when texts are shown as written (a site in one language). */
  private readonly wanted: string | undefined;
  private readonly fallback: string;

  constructor(
    private readonly model: PageTextsModel,
    language: string,
  ) {
    const { publisher } = model;
    this.fallback = publisher.language;
    const tag = isMultilingual(publisher) ? siteLanguage(language, publisher) : undefined;
    this.wanted = tag === undefined || tag === publisher.language ? undefined : tag;
  }

  /** The text at `path` of `source` in the page's language, else `text` marked as the default language's. */
  pick<T extends TextValue>(
    text: T,
    source: SourceDoc | undefined,
    path: readonly PropertyKey[],
  ): PageText<T> {
    if (this.wanted === undefined) return { text };
    const translated = source && this.model.texts?.get(source, path, this.wanted);
    return translated === undefined ? { text, lang: this.fallback } : { text: translated as T };
  }

  /** The title of the pages: `siteName`, else the organization's name (a name, never marked). */
  siteName(): PageText {
    const { publisher, publisherSource } = this.model;
    return publisher.siteName === undefined
      ? { text: publisher.organization }
      : this.pick(publisher.siteName, publisherSource, ['siteName']);
  }

  /** The sentence about the site (`description`), when there is one. */
  siteDescription(): PageText | undefined {
    const { publisher, publisherSource } = this.model;
    return publisher.description === undefined
      ? undefined
      : this.pick(publisher.description, publisherSource, ['description']);
  }

  /** The agent's `name`. */
  agentName(agent: Pick<AgentModel, 'front' | 'source'>): PageText {
    return this.pick(agent.front.name, agent.source, ['name']);
  }

  /** The agent's `description`. */
  agentDescription(agent: Pick<AgentModel, 'front' | 'source'>): PageText {
    return this.pick(agent.front.description, agent.source, ['description']);
  }

  /** The Markdown body of the agent: `content/agents/<slug>.<tag>.md` in the page's language, else its own. */
  body(agent: Pick<AgentModel, 'slug' | 'body'>): PageText {
    if (this.wanted === undefined) return { text: agent.body };
    const body = this.model.texts?.body(agent.slug, this.wanted);
    return body === undefined ? { text: agent.body, lang: this.fallback } : { text: body };
  }

  /** A field of the agent's skill at `index` of `skills`. */
  skill(agent: Pick<AgentModel, 'front' | 'source'>, index: number, field: 'name' | 'description'): PageText {
    const skill = agent.front.skills[index]!;
    return this.pick(skill[field], agent.source, ['skills', index, field]);
  }

  /** The `examples` of the agent's skill at `index` (empty when it has none). */
  skillExamples(agent: Pick<AgentModel, 'front' | 'source'>, index: number): PageText<readonly string[]> {
    const examples = agent.front.skills[index]?.examples;
    return examples === undefined
      ? { text: [] }
      : this.pick(examples, agent.source, ['skills', index, 'examples']);
  }

  /** The `accessJustification` of the agent's access `id`, whose default text is `text`. */
  justification(agent: Pick<AgentModel, 'accesses'>, id: string, text: string): PageText {
    return this.accessText(agent, id, ['accessJustification'], text);
  }

  /** The `neededScope.reason` of the agent's access `id` (docs/permissions.md "Needed scopes"), default `text`. */
  neededReason(agent: Pick<AgentModel, 'accesses'>, id: string, text: string): PageText {
    return this.accessText(agent, id, ['neededScope', 'reason'], text);
  }

  /** The text at `field` of the agent's access `id`, whose default text is `text`. */
  private accessText(
    agent: Pick<AgentModel, 'accesses'>,
    id: string,
    field: readonly string[],
    text: string,
  ): PageText {
    let byId = accessesOf.get(agent as AgentModel);
    if (!byId) {
      byId = new Map(agent.accesses.map((a) => [a.access.id, a]));
      accessesOf.set(agent as AgentModel, byId);
    }
    const origin = byId.get(id)?.origin;
    return this.pick(text, origin?.source, [...(origin?.path ?? []), ...field]);
  }

  /** The description and scope meanings of the agent's security scheme `name` (A2A `SecurityScheme`). */
  securityScheme(agent: Pick<AgentModel, 'source'>, name: string, scheme: SecuritySchemeInput): SchemeTexts {
    const out: SchemeTexts = { scopes: new Map() };
    const base = ['securitySchemes', name];
    for (const [member, value] of Object.entries(scheme)) {
      const description = (value as { description?: string } | undefined)?.description;
      if (description !== undefined)
        out.description = this.pick(description, agent.source, [...base, member, 'description']);
    }
    for (const [flow, value] of Object.entries(scheme.oauth2SecurityScheme?.flows ?? {})) {
      for (const [scope, meaning] of Object.entries(value?.scopes ?? {})) {
        if (!out.scopes.has(scope))
          out.scopes.set(
            scope,
            this.pick(meaning, agent.source, [
              ...base,
              'oauth2SecurityScheme',
              'flows',
              flow,
              'scopes',
              scope,
            ]),
          );
      }
    }
    return out;
  }

  /** A field of a resource of the RAM catalog (its `displayName` or `description`). */
  resource(resource: RamResource, field: 'displayName' | 'description'): PageText {
    const origin = this.model.resources.get(resource.id)?.origin;
    return this.pick(resource[field], origin?.source, [...(origin?.path ?? []), field]);
  }

  /** The `description` of an operation of the RAM catalog: what the action does. */
  operation(operation: RamOperation): PageText {
    const origin = this.model.operations.get(operation.id)?.origin;
    return this.pick(operation.description, origin?.source, [...(origin?.path ?? []), 'description']);
  }

  /** A field of an entry of `content/entries/` (`displayName`, `description`), whose default text is `text`. */
  entry(
    entry: Pick<OtherEntryModel, 'source'>,
    field: 'displayName' | 'description',
    text: string,
  ): PageText {
    return this.pick(text, entry.source, [field]);
  }
}
