/**
 * The checks of a site's languages (DESIGN.md §9 "Languages", docs/languages.md): every page language has
 * its page words (src/core/i18n/words/), publisher.yaml `language` is one of `languages` when both are
 * given, an agent's own `language` is refused on a site with `languages:` (every agent is published in
 * each of them), and the registry's lookup API does not sit under a language's path prefix.
 */
import type { Diagnostic, ErrorCode } from '../util/errors.js';
import { formatPath } from '../util/errors.js';
import { languagePrefix, sameLanguage } from '../i18n/languages.js';
import { findWords, SUPPORTED_LANGUAGES } from '../i18n/words/index.js';
import type { ContentModel } from '../model/content.js';
import type { SourceDoc } from '../model/source.js';

function finding(
  source: SourceDoc,
  path: readonly PropertyKey[],
  code: ErrorCode,
  message: string,
): Diagnostic {
  return source.diagnostic({ code, severity: 'error', message, path: formatPath(path) }, path);
}

/**
 * The language findings of `model`: PAGE_LANGUAGE_UNSUPPORTED (a language without page words, at
 * `language`, `languages[i]` or an agent's `language`), LANGUAGES_INVALID (`language` not among
 * `languages`; a registry `basePath` under a language's prefix) and AGENT_LANGUAGE_WITH_LANGUAGES.
 * Errors only; never throws.
 */
export function checkLanguages(model: ContentModel): Diagnostic[] {
  const { publisher, publisherSource } = model;
  const out: Diagnostic[] = [];
  const supported = SUPPORTED_LANGUAGES.join(', ');
  const unsupported = (tag: string) => `language "${tag}" has no page words (supported: ${supported})`;
  if (!findWords(publisher.language))
    out.push(
      finding(publisherSource, ['language'], 'PAGE_LANGUAGE_UNSUPPORTED', unsupported(publisher.language)),
    );
  const languages = publisher.languages;
  languages?.forEach((tag, i) => {
    if (!findWords(tag) && !sameLanguage(tag, publisher.language))
      out.push(finding(publisherSource, ['languages', i], 'PAGE_LANGUAGE_UNSUPPORTED', unsupported(tag)));
  });
  if (languages && !languages.some((tag) => sameLanguage(tag, publisher.language)))
    out.push(
      finding(
        publisherSource,
        ['language'],
        'LANGUAGES_INVALID',
        `language "${publisher.language}" (the default language, served at /) is not one of languages (${languages.join(', ')}): add it to the list, or remove language to make the first of the list the default`,
      ),
    );
  if (languages && publisher.registry.enabled) {
    const first = publisher.registry.basePath.split('/')[1] ?? '';
    const clash = languages.find((tag) => languagePrefix(tag, publisher) === `/${first.toLowerCase()}`);
    if (clash)
      out.push(
        finding(
          publisherSource,
          ['registry', 'basePath'],
          'LANGUAGES_INVALID',
          `basePath "${publisher.registry.basePath}" lies under /${first.toLowerCase()}/, where the "${clash}" pages are served: choose another path`,
        ),
      );
  }
  for (const agent of model.agents) {
    const language = agent.front.language;
    if (language === undefined) continue;
    if (languages)
      out.push(
        finding(
          agent.source,
          ['language'],
          'AGENT_LANGUAGE_WITH_LANGUAGES',
          `this site publishes every agent in each of its languages (${languages.join(', ')}), so an agent has no language of its own: remove language, and give this agent's texts per language ({ ${publisher.language}: …, … }) where they differ`,
        ),
      );
    else if (!findWords(language))
      out.push(finding(agent.source, ['language'], 'PAGE_LANGUAGE_UNSUPPORTED', unsupported(language)));
  }
  return out;
}
