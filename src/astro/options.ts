/**
 * The options of the Astro integration (`ardsite({ … })` in a site's astro.config.mjs) as one zod schema,
 * the way Astro's own integrations declare theirs (`@astrojs/sitemap`'s `src/schema.ts`). Bad options are
 * reported as Astro reports a user's mistake: an `AstroUserError` with a message and a hint (Astro's
 * `astro/errors`).
 */
import { AstroError as AstroUserError } from 'astro/errors';
import { z } from 'zod';

/** The integration's options, as a publisher writes them. */
export const ArdsiteAstroOptionsSchema = z
  .object({
    /**
     * The ardsite project folder, relative to the Astro site's root or absolute: the folder that holds
     * `content/` (publisher.yaml, agents, resources) and `.ardsite/` (default `ardsite`).
     */
    project: z.string().min(1).default('ardsite'),
    /**
     * A file holding the private signing key (JWK or PEM), relative to the Astro site's root or absolute:
     * as `ARDSITE_SIGNING_KEY_FILE`. When absent, the key is found as `ardsite build` finds it.
     */
    keyFile: z.string().min(1).optional(),
    /**
     * The path ardsite's HTML pages sit under in the site (`/ai`: `/ai/`, `/ai/agents/<slug>/`), as
     * publisher.yaml's `hosting.pagesPrefix`, which it overrides. The well-known files and the cards
     * keep their paths. Default: publisher.yaml's, else none (ardsite's index then gives way to the site's).
     */
    pagesPrefix: z
      .string()
      .regex(/^(\/[a-z0-9][a-z0-9._-]*)+$/, 'a path such as /ai: lower-case segments, no trailing slash')
      .optional(),
  })
  .strict()
  .default({ project: 'ardsite' });

/** The options once parsed: defaults filled in. */
export type ArdsiteAstroOptions = z.output<typeof ArdsiteAstroOptionsSchema>;

/** The options a publisher may pass (every field optional). */
export type ArdsiteAstroUserOptions = z.input<typeof ArdsiteAstroOptionsSchema>;

/**
 * Parses the options given to `ardsite()`.
 * @throws AstroUserError naming every bad option by its path, with a hint listing the accepted ones.
 */
export function parseOptions(input: unknown): ArdsiteAstroOptions {
  const parsed = ArdsiteAstroOptionsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map(
    (issue) => `  ${issue.path.length > 0 ? issue.path.join('.') : '(options)'}: ${issue.message}`,
  );
  throw new AstroUserError(
    `Invalid options given to ardsite() in astro.config:\n${lines.join('\n')}`,
    'ardsite() accepts { project?: string, keyFile?: string, pagesPrefix?: string }; see docs/guides/astro-integration.md.',
  );
}
