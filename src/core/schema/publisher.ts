/**
 * `content/publisher.yaml`: who publishes the site and how it is signed (DESIGN.md §1, §4). Its
 * `registry:` section (registry mode, ARD draft §4.2–§4.3) is in ./registry-settings.ts.
 */
import { z } from 'zod';
import { isFqdn } from '../ard/urn.js';
import { isLanguageTag, sameLanguage } from '../i18n/languages.js';
import { httpsUrl, isoDate, nonEmptyString, PER_LANGUAGE, urnSegment } from './common.js';
import { RegistrySettings } from './registry-settings.js';

/** Default URI of the RAM data-only extension: it names the RAM proposal (DESIGN.md §3). */
export const DEFAULT_RAM_EXTENSION_URI = 'https://github.com/a2aproject/A2A/issues/1426';

/** A public key that was rotated out: published until `retireAt`, dropped at once when `revoked`. */
export const RetiredKey = z
  .strictObject({
    jwk: z.record(z.string(), z.unknown()).meta({
      description: 'The public JWK of the old key, as `npm run keygen` printed it.',
      examples: [{ kty: 'EC', crv: 'P-256', x: '…', y: '…', kid: 'key-2025' }],
    }),
    retireAt: isoDate.optional().meta({
      description: 'Until when the key stays published, so signatures made with it still verify.',
      examples: ['2026-06-30'],
    }),
    revoked: z.boolean().optional().meta({
      description: 'true: the key was compromised; it is dropped at once and never signs.',
    }),
  })
  .meta({ spec: 'DESIGN.md §4' });

/** `signing:` settings (DESIGN.md §4). */
export const SigningSettings = z
  .strictObject({
    /** Type of a key created here (default ES256); when set, a supplied key of another type is refused. */
    algorithm: z.enum(['ES256', 'EdDSA']).optional().meta({
      description:
        'The type of a key made here (ES256 when absent); when set, a supplied key of another type is refused.',
      spec: 'RFC 7518 §3.1, RFC 8037',
    }),
    keyFile: nonEmptyString.optional().meta({
      description:
        'The private signing key (a JWK file) relative to the project; default .ardsite/keys/signing.jwk.json (made on the first build). Never under public/. Content a pull request can change: a key named here signs only when the operator lists its thumbprint in ARDSITE_TRUSTED_KEYS (prefer ARDSITE_SIGNING_KEY_FILE).',
      examples: ['.ardsite/keys/signing.jwk.json'],
    }),
    requireKey: z.boolean().default(false).meta({
      description: 'true: a build without the key fails instead of making one (for CI).',
    }),
    /** Days after `issuedAt` at which trustManifests expire; none when absent. */
    expiresInDays: z
      .number()
      .int()
      .positive()
      .optional()
      .meta({
        description: 'Days after a build at which its trustManifests expire (`expiresAt`); none when absent.',
        examples: [90],
        spec: 'ARD draft §3.5',
      }),
    retiredKeys: z.array(RetiredKey).optional().meta({
      description:
        'Keys rotated out, still published in did.json and jwks.json until `retireAt`. Each key (retired or revoked) must also be confirmed by the operator: its RFC 7638 thumbprint listed in the environment variable ARDSITE_TRUSTED_KEYS, else the build fails (KEY_NOT_CONFIRMED).',
      spec: 'DESIGN.md §4, §10 (trust boundary)',
    }),
  })
  .meta({ spec: 'DESIGN.md §4' });

/**
 * Values of `hosting.agentmap` (DESIGN.md §9): no `Agentmap:` line (the default), or one naming the
 * seed-002 manifest (`ard`) or its ARD v0.9 compatibility copy (`ai-catalog`).
 */
export const AGENTMAP_CHOICES = ['none', 'ard', 'ai-catalog'] as const;
/** One value of `hosting.agentmap`. */
export type AgentmapChoice = (typeof AGENTMAP_CHOICES)[number];

/** `hosting:` options (DESIGN.md §2, §9). */
export const HostingSettings = z
  .strictObject({
    /** Also write the primary card at `/.well-known/agent.json` (pre-0.3 clients). */
    legacyAgentJson: z.boolean().optional().meta({
      description:
        "Also serve the primary agent’s card at /.well-known/agent.json, the path clients before A2A v0.3 ask for. Default: on when the primary agent has a '0.3' interface (its card then carries the v0.3 fields those clients read), off otherwise; `true` without such an interface draws a warning.",
      spec: 'A2A v0.2 (agent.json), DESIGN.md §2',
    }),
    /** Whether robots.txt carries an `Agentmap:` line, and what it names (see the description). */
    agentmap: z
      .enum(AGENTMAP_CHOICES)
      .default('none')
      .meta({
        description:
          "Whether robots.txt names a manifest in an `Agentmap:` line. `none` (default): no such line; crawlers find /.well-known/ard.json at its well-known URI and through the pages' `<link rel=\"ard\">` and `Link` header. `ard`: `Agentmap: https://<domain>/.well-known/ard.json`. `ai-catalog`: `Agentmap: https://<domain>/.well-known/ai-catalog.json`, where ARD v0.9 crawlers expect it. `Agentmap:` is not part of the ARD draft (draft-bu-dawn-ard-discovery-00), and Lighthouse's robots.txt audit reports it as an unknown directive (SEO 91 instead of 100); with `ard`, Lighthouse's ard-schema audit also reads ard.json as a v0.9 catalog and fails.",
        examples: ['ai-catalog'],
        spec: 'ARD v0.9 §4.1 (Agentmap directive), RFC 9309, DESIGN.md §9',
      }),
    /** A path the HTML pages sit under (`/ai`: `/ai/`, `/ai/agents/<slug>/`); the JSON files keep theirs. */
    pagesPrefix: z
      .string()
      .regex(/^(\/[a-z0-9][a-z0-9._-]*)+$/, 'a path such as /ai: lower-case segments, no trailing slash')
      .optional()
      .meta({
        description:
          "A path the HTML pages (index, agent and permission pages, each language's) are served under, for a site whose own pages hold `/` (the Astro integration sets it from its `pagesPrefix` option). The well-known files and the agent cards keep their paths, which their signatures and URNs name.",
        examples: ['/ai'],
        spec: 'RFC 3986 §3.3 (path), DESIGN.md §2',
      }),
  })
  .meta({ spec: 'DESIGN.md §2, §9' });

/** `ram:` options (DESIGN.md §3). */
export const RamSettings = z
  .strictObject({
    extensionUri: httpsUrl.default(DEFAULT_RAM_EXTENSION_URI).meta({
      description:
        'The URI of the A2A extension that carries the RAM in each card (`capabilities.extensions[].uri`).',
      examples: [DEFAULT_RAM_EXTENSION_URI],
    }),
    topLevel: z.boolean().default(true).meta({
      description:
        'Also write the RAM as a top-level `resourceAccessManifest` member of each card (the RAM proposal’s form).',
    }),
  })
  .meta({ spec: 'the RAM proposal, DESIGN.md §3' });

/** `releases:` options: the release history and what changed between versions (DESIGN.md §9, docs/releases.md). */
export const ReleaseSettings = z
  .strictObject({
    /** Days the agent page and the index show "new permissions" after a version that gained access. */
    noticeDays: z
      .number()
      .int()
      .min(0)
      .max(3650)
      .default(30)
      .meta({
        description:
          'Days the agent page and the index show a short "new permissions" notice after a version that gained access (0: never), counted from its release date to SOURCE_DATE_EPOCH or the build time.',
        examples: [30],
      }),
  })
  .meta({ spec: 'DESIGN.md §9 (Releases)' });

/** A well-formed BCP 47 language tag (RFC 5646 §2.1, as `Intl.getCanonicalLocales` reads it). */
const languageTag = nonEmptyString.refine(isLanguageTag, {
  message: 'must be a BCP 47 language tag such as en or pt-BR',
  params: { code: 'LANGUAGES_INVALID' },
});

/** Default `limits:`: 8 MiB a content file, 1 MiB a text, 64 levels of nesting. */
export const DEFAULT_LIMITS = Object.freeze({
  fileBytes: 8 * 1024 * 1024,
  textBytes: 1024 * 1024,
  depth: 64,
});

/**
 * `limits:` (DESIGN.md §9, bounded input): what a content file, a single text and the nesting of a
 * document may reach. The defaults are far beyond any real publisher's content; `npm run check` reports
 * what goes past them with file, field and line.
 */
export const LimitSettings = z
  .strictObject({
    fileBytes: z
      .number()
      .int()
      .min(1024)
      .max(1024 * 1024 * 1024)
      .default(DEFAULT_LIMITS.fileBytes)
      .meta({
        description:
          'Largest content file read (publisher.yaml, an agent, a resource, an entry, a ramFile), in bytes. Default 8388608 (8 MiB); a larger file is not read.',
        examples: [16777216],
      }),
    textBytes: z
      .number()
      .int()
      .min(1024)
      .max(256 * 1024 * 1024)
      .default(DEFAULT_LIMITS.textBytes)
      .meta({
        description:
          "Longest single text (a string value, a key, an agent's Markdown body), in UTF-8 bytes. Default 1048576 (1 MiB).",
        examples: [4194304],
      }),
    depth: z
      .number()
      .int()
      .min(8)
      .max(512)
      .default(DEFAULT_LIMITS.depth)
      .meta({
        description:
          'Deepest nesting of lists and mappings in one document (the top level is 1). Default 64.',
        examples: [128],
      }),
  })
  .meta({ spec: 'DESIGN.md §9' });

/** The publisher file. `siteUrl` must be exactly `https://<domain>/` (checked by the loader). */
export const Publisher = z
  .strictObject({
    domain: nonEmptyString
      .refine(isFqdn, 'must be a lower-case domain name without port or trailing dot')
      .meta({
        description: 'The site’s domain: the did:web identity and the domain of every URN.',
        examples: ['agents.example.com'],
        spec: 'ARD draft §3.4, did:web',
      }),
    siteUrl: httpsUrl.meta({
      description: 'Exactly https://<domain>/: ARD and did:web live at the root.',
      examples: ['https://agents.example.com/'],
    }),
    organization: nonEmptyString.meta({
      description: 'Who publishes: the provider of the agents and the name shown on pages.',
      examples: ['Example Travel Co.'],
      spec: 'A2A v1.0 AgentProvider',
    }),
    organizationUrl: httpsUrl.meta({
      description: 'The publisher’s main web site (the provider url of the cards).',
      examples: ['https://www.example.com/'],
      spec: 'A2A v1.0 AgentProvider',
    }),
    namespace: urnSegment.default('agents').meta({
      description: 'The URN namespace: urn:air:<domain>:<namespace>:<slug>.',
      examples: ['travel'],
      spec: 'ARD draft §3.4',
    }),
    siteName: nonEmptyString.optional().meta({
      ...PER_LANGUAGE,
      description: 'The title of the pages; default: `organization`.',
      examples: ['Example Travel agents'],
    }),
    description: nonEmptyString.optional().meta({
      ...PER_LANGUAGE,
      description: 'One sentence about the site, shown on its home page.',
      examples: ['The AI agents of Example Travel Co. and what they may touch.'],
    }),
    language: nonEmptyString.default('en').meta({
      description:
        'The language of the pages (BCP 47 tag): their words, dates and numbers, and `<html lang>`. One with page words: `en` or `pt-BR`; another is PAGE_LANGUAGE_UNSUPPORTED. An agent’s own `language` overrides it for its pages. With `languages`: the default language, served at `/` and carried by the cards (default: the first of `languages`); it must be one of them.',
      examples: ['en', 'pt-BR'],
      spec: 'BCP 47 (RFC 5646)',
    }),
    languages: z
      .array(languageTag)
      .min(1)
      .superRefine((tags, ctx) => {
        tags.forEach((tag, i) => {
          const first = tags.findIndex((t) => sameLanguage(t, tag));
          if (first < i)
            ctx.addIssue({
              code: 'custom',
              path: [i],
              message: `"${tag}" is listed twice (language tags are compared without regard to case)`,
              params: { code: 'LANGUAGES_INVALID' },
            });
        });
      })
      .optional()
      .meta({
        description:
          'The languages the pages are published in (BCP 47 tags with page words: `en`, `pt-BR`), the default first (or `language`, when given). The default language’s pages are served at `/`, each other’s under its tag in lower case (`/pt-br/`), with `hreflang` links between them, a language switcher and one sitemap. The texts people read (names, descriptions, skills, justifications) may then be given per language, `{ en: …, pt-BR: … }`, and an agent’s Markdown body in `content/agents/<slug>.<tag>.md`; cards and ard.json carry the default language’s text. An agent’s own `language` is refused with `languages` (docs/languages.md).',
        examples: [['en', 'pt-BR']],
        spec: 'BCP 47 (RFC 5646), HTML hreflang, DESIGN.md §9 (Languages)',
      }),
    contactEmail: z
      .email()
      .optional()
      .meta({
        description: 'An address people can write to about the agents, shown on pages.',
        examples: ['agents@example.com'],
      }),
    contactUrl: httpsUrl.optional().meta({
      description: 'A contact page, shown on pages.',
      examples: ['https://www.example.com/contact'],
    }),
    privacyPolicyUrl: httpsUrl.optional().meta({
      description: 'The privacy policy, linked from the pages.',
      examples: ['https://www.example.com/privacy'],
    }),
    termsUrl: httpsUrl.optional().meta({
      description: 'The terms of service, linked from pages.',
      examples: ['https://www.example.com/terms'],
    }),
    primaryAgent: urnSegment.optional().meta({
      description: 'The slug of the agent also served at /.well-known/agent-card.json.',
      examples: ['trip-helper'],
      spec: 'A2A v1.0 §8.2 (well-known AgentCard)',
    }),
    signing: SigningSettings.default({ requireKey: false }).meta({ description: 'How the site is signed.' }),
    hosting: HostingSettings.default({ agentmap: 'none' }).meta({
      description: 'Extra files for hosting.',
    }),
    ram: RamSettings.default({ extensionUri: DEFAULT_RAM_EXTENSION_URI, topLevel: true }).meta({
      description: 'Where each card carries its RAM.',
    }),
    registry: RegistrySettings.default(() => RegistrySettings.parse({})).meta({
      description: 'Registry mode: the lookup API served beside the static site by `npm run serve`.',
    }),
    releases: ReleaseSettings.default({ noticeDays: 30 }).meta({
      description:
        'The release history: how long a version that gained access is announced on the pages (docs/releases.md).',
      spec: 'DESIGN.md §9 (Releases)',
    }),
    limits: LimitSettings.default(() => LimitSettings.parse({})).meta({
      description:
        'Limits on content files, single texts and nesting depth; content past them is an error of npm run check, with file, field and line.',
      spec: 'DESIGN.md §9',
    }),
    /**
     * Folders outside the project that files of the build may resolve to through symbolic links (a
     * shared assets folder, say). Empty by default: the project is a jail (DESIGN.md §9).
     */
    allowOutside: z
      .array(nonEmptyString)
      .default([])
      .meta({
        description:
          'Kept for compatibility: folders outside the project (absolute, or relative to the project folder) that content, public/ and attestation files may reach through symbolic links. The operator decides this: each folder must also be listed in the environment variable ARDSITE_ALLOW_OUTSIDE (separated by ":"), which alone is enough; else the build fails (ALLOW_OUTSIDE_NOT_CONFIRMED). Empty by default: every file the build reads must resolve inside the project.',
        examples: [['/srv/shared-assets']],
        spec: 'DESIGN.md §9, §10 (trust boundary)',
      }),
  })
  .meta({ spec: 'DESIGN.md §1' });

/** The validated `limits:` (bytes for `fileBytes` and `textBytes`, levels for `depth`). */
export type ContentLimits = z.infer<typeof LimitSettings>;

/** The validated publisher, defaults applied. */
export type PublisherConfig = z.infer<typeof Publisher>;
