/**
 * The clause of a scope's own description that says what the permission leaves out (src/core/pages/
 * scope-limits.ts), from descriptions as services publish them: Google's Gmail scopes (Discovery
 * `auth.oauth2.scopes`), Microsoft Graph's Mail.ReadBasic and GitHub's OAuth scopes (their documentation's
 * wording), and ones that say nothing of the kind.
 */
import { describe, expect, it } from 'vitest';
import { limitClause } from '../../../src/core/pages/scope-limits.js';

describe('limitClause', () => {
  it.each([
    [
      'View your email message metadata such as labels and headers, but not the email body',
      'but not the email body',
    ],
    ['View and modify but not delete your email', 'but not delete your email'],
    [
      'Allows the app to read email in the signed-in user’s mailbox except body, previewBody, attachments and any extended properties.',
      'except body, previewBody, attachments and any extended properties',
    ],
    ['Read-only access to organization membership, organization projects, and team membership.', 'Read-only'],
    ['See info about your Google Drive files (read only)', 'read only'],
  ])('%s → %s', (description, clause) => {
    expect(limitClause(description)).toBe(clause);
  });

  it.each([
    'View your email messages and settings',
    'See, edit, create, and delete all of your Google Drive files',
    'Send email on your behalf',
    '',
  ])('says nothing of “%s”', (description) => {
    expect(limitClause(description)).toBeUndefined();
  });

  it('nor of a scope without a description', () => {
    expect(limitClause(undefined)).toBeUndefined();
  });
});
