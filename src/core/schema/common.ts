/**
 * Small schema pieces shared by every format: non-empty strings, URL rules (DESIGN.md §5), media types.
 * Custom issues carry `params.code`, an {@link ErrorCode}, so the loader reports the precise code.
 */
import { z } from 'zod';
import { isLoopbackHost } from '../util/net-address.js';

/**
 * The `.meta()` members of a text people read that a publisher may give per language (DESIGN.md §9
 * "Languages", docs/languages.md): spread into the field's meta, `.meta({ ...PER_LANGUAGE, description })`.
 * Such a field is a string in the site's default language, or a map of BCP 47 tag → text (a list of texts
 * for a list field). The content loader reads the map before validation (src/core/content/texts.ts), so
 * the schema checks the default language's text and the cards carry it; the pages read the others. The
 * field reference (./reference.ts) shows both forms.
 */
export const PER_LANGUAGE = { localized: true } as const;

/** A string that is not empty (DESIGN.md §3: no field is ever `""`). */
export const nonEmptyString = z.string().trim().min(1);

/**
 * Checks an absolute URL for DESIGN.md §5: `https:`, or `http:` on a loopback host (`localhost`, `*.localhost`, a
 * loopback address: util/net-address.ts, the rule the HTTP client applies too). Returns the reason it
 * fails, or `undefined` when it passes.
 */
export function httpsUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not an absolute URL`;
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return `"${value}" must use https: (http: is allowed for localhost only)`;
}

/** An absolute `https:` URL (`http:` only for localhost), DESIGN.md §5; code `URL_NOT_HTTPS`. */
export const httpsUrl = nonEmptyString.superRefine((value, ctx) => {
  const problem = httpsUrlProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, params: { code: 'URL_NOT_HTTPS' } });
});

/** A media type `type/subtype` (RFC 6838 §4.2 restricted names, optional parameters). */
export const mediaType = nonEmptyString.superRefine((value, ctx) => {
  if (
    !/^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9*][A-Za-z0-9!#$&^_.+*-]{0,126}(\s*;.*)?$/.test(value)
  ) {
    ctx.addIssue({
      code: 'custom',
      message: `"${value}" is not a media type (type/subtype)`,
      params: { code: 'SCHEMA_INVALID_VALUE' },
    });
  }
});

/** An ISO 8601 / RFC 3339 date or date-time. */
export const isoDate = nonEmptyString.superRefine((value, ctx) => {
  if (
    !/^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ||
    Number.isNaN(Date.parse(value))
  ) {
    ctx.addIssue({
      code: 'custom',
      message: `"${value}" is not an ISO 8601 date`,
      params: { code: 'SCHEMA_INVALID_VALUE' },
    });
  }
});

/** Lower-case id segment used in URNs and slugs: `[a-z0-9._-]+` (DESIGN.md §2). */
export const urnSegment = z.string().regex(/^[a-z0-9._-]+$/, 'must match [a-z0-9._-]+');

/** A string → string map with at least one member (DESIGN.md §3: no `{}` in a card). */
export const nonEmptyStringMap = z
  .record(z.string().min(1), nonEmptyString)
  .refine((m) => Object.keys(m).length > 0, {
    message: 'must hold at least one entry',
    params: { code: 'SCHEMA_EMPTY' },
  });

/** A free-form JSON object with at least one member (ARD `metadata`, DESIGN.md §2: nothing empty). */
export const nonEmptyObject = z.record(z.string(), z.unknown()).refine((m) => Object.keys(m).length > 0, {
  message: 'must hold at least one member',
  params: { code: 'SCHEMA_EMPTY' },
});
