/**
 * What a service's own description of a permission says it leaves out (RFC 6749 §3.3: the service defines
 * its scopes, and its consent screen shows their descriptions): "View your email message metadata such as
 * labels and headers, but not the email body" leaves out the body; "View and modify but not delete your
 * email" leaves out deleting; "(read-only)" leaves out changes. The page shows that clause beside the
 * permission, in the service's own words, never a paraphrase.
 */

/**
 * A clause that limits a permission, from its marker ("but not", "except", "excluding", "not including",
 * "other than", "without") to the end of its sentence or part of a sentence (a period, semicolon or
 * closing bracket), or a "read-only" / "read only" / "readonly" that qualifies the permission.
 */
const LIMIT =
  /\b(?:but not|except(?: for)?|excluding|not including|other than|without)\b[^.;:)\]]*|\bread[- ]?only\b/i;

/**
 * The clause of `description` (a scope's own description, as the spec gives it) that says what the
 * permission leaves out, trimmed, as written; undefined when it says nothing of the kind. Pure.
 */
export function limitClause(description: string | undefined): string | undefined {
  const match = description === undefined ? null : LIMIT.exec(description);
  const clause = match?.[0].trim().replace(/,$/, '');
  return clause === undefined || clause === '' ? undefined : clause;
}
