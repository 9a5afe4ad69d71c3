/**
 * The entries' texts in the site's other languages, for the registry's index (src/core/registry/catalog.ts): `ard.json`
 * carries the default language's texts only (ARD draft §3.2 has no per-language members), while the
 * site's pages in each other language show the publisher's translations (docs/languages.md). A registry
 * build writes those, the texts the pages in that language show, to {@link REGISTRY_TEXTS_FILE} in its
 * server folder beside `registry-build.json`, bound to the `ard.json` it was built with by the manifest's
 * digest; the registry reads them at start-up (src/core/registry/entry-texts.ts) to index each language with its
 * own stemmer.
 *
 * Per entry and language, only translated members are kept (a member missing is the entry's own text):
 * an agent's `displayName` (its `name`) and `description`; its `capabilities` (its skills' names) and
 * `representativeQueries` (its skills' examples) when they come from the skills rather than from
 * `discovery`, which is machine-read and written once; an entry of `content/entries/`'s `displayName`
 * and `description`.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { siteLanguages } from '../i18n/languages.js';
import { PageTexts, type PageText } from '../pages/page-texts.js';
import type { EntryTexts } from '../registry/catalog.js';
import { REGISTRY_TEXTS_FILE, type RegistryTexts } from '../registry/entry-texts.js';
import type { SiteBuild } from '../site/site-build.js';

/** The text when the page shows it translated (not marked as the default language's), else undefined. */
function translated<T>(text: PageText<T & (string | readonly string[])>): T | undefined {
  return text.lang === undefined ? text.text : undefined;
}

/** `texts` without its undefined members; undefined when none is left. */
function defined(texts: Record<string, string | readonly string[] | undefined>): EntryTexts | undefined {
  const out = Object.fromEntries(Object.entries(texts).filter(([, v]) => v !== undefined));
  return Object.keys(out).length > 0 ? (out as EntryTexts) : undefined;
}

/**
 * The translated texts of the entries of `site` (see the module comment), for its `ard.json` of digest
 * `manifestDigest`. A site in one language gives `languages` of one tag and no entries.
 */
export function registryTextsOf(
  site: Pick<SiteBuild, 'model' | 'agents' | 'otherEntries'>,
  manifestDigest: string,
): RegistryTexts {
  const languages = siteLanguages(site.model.publisher);
  const byKey = new Map<string, RegistryTexts['entries'][number]>();
  const add = (entry: Readonly<Record<string, unknown>>, tag: string, texts?: EntryTexts) => {
    if (!texts) return;
    const identifier = String(entry.identifier);
    const version = typeof entry.version === 'string' ? entry.version : undefined;
    const key = `${identifier}\u0000${version ?? ''}`;
    let item = byKey.get(key);
    if (!item) byKey.set(key, (item = { identifier, ...(version ? { version } : {}), texts: {} }));
    item.texts[tag] = texts;
  };
  for (const tag of languages.slice(1)) {
    const pages = new PageTexts(site.model, tag);
    for (const { agent, entry } of site.agents) {
      const { front } = agent;
      const skills = front.skills.map((_, i) => ({
        name: pages.skill(agent, i, 'name'),
        examples: pages.skillExamples(agent, i),
      }));
      const fromSkills = (pick: (s: (typeof skills)[number]) => PageText<string | readonly string[]>) =>
        skills.some((s) => pick(s).lang === undefined && pick(s).text.length > 0);
      const queries =
        front.discovery?.representativeQueries?.length || !fromSkills((s) => s.examples)
          ? undefined
          : skills.flatMap((s) => s.examples.text).slice(0, 5);
      const capabilities =
        front.discovery?.capabilities || !fromSkills((s) => s.name)
          ? undefined
          : skills.map((s) => s.name.text);
      add(
        entry,
        tag,
        defined({
          displayName: translated(pages.agentName(agent)),
          description: translated(pages.agentDescription(agent)),
          capabilities,
          // Only where the entry's own queries are the skills' examples (content/checks.ts).
          representativeQueries: queries,
        }),
      );
    }
    for (const { model, entry } of site.otherEntries) {
      add(
        entry,
        tag,
        defined({
          displayName:
            typeof entry.displayName === 'string'
              ? translated(pages.entry(model, 'displayName', entry.displayName))
              : undefined,
          description:
            typeof entry.description === 'string'
              ? translated(pages.entry(model, 'description', entry.description))
              : undefined,
        }),
      );
    }
  }
  return { format: 1, manifestDigest, languages, entries: [...byKey.values()] };
}

/** Writes `texts` into the server folder `serverDir`. */
export async function writeRegistryTexts(serverDir: string, texts: RegistryTexts): Promise<void> {
  await writeFile(path.join(serverDir, REGISTRY_TEXTS_FILE), `${JSON.stringify(texts)}\n`);
}
