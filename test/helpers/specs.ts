/**
 * Stored specs for fixture sites: a spec document's text, its project path, and the `specFile` /
 * `specDigest` lines a resource file pins it with. The digest is computed here with node:crypto,
 * independently of src/core.
 */
import { createHash } from 'node:crypto';

/** A stored spec: where it goes in the site, its text, and the resource lines that pin it. */
export interface StoredSpecFixture {
  /** Project-relative path (`content/specs/<name>`). */
  file: string;
  text: string;
  /** `specFile: …\nspecDigest: sha256:…\n`, for a resource YAML file. */
  pin: string;
}

/** `doc` as JSON at `content/specs/<name>`, with the lines that pin it. */
export function storedSpec(name: string, doc: unknown): StoredSpecFixture {
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  const file = `content/specs/${name}`;
  const digest = `sha256:${createHash('sha256').update(text).digest('hex')}`;
  return { file, text, pin: `specFile: ${file}\nspecDigest: ${digest}\n` };
}

/**
 * A small OpenAPI 3.0 document of a notes service: `GET /notes` (`notes.list`, scope `notes.readonly` or
 * `notes`) and `POST /notes` (`notes.create`, scope `notes`), OAuth 2 with both scopes described.
 */
export const NOTES_OPENAPI = {
  openapi: '3.0.3',
  info: { title: 'Notes', version: '1' },
  paths: {
    '/notes': {
      get: { operationId: 'notes.list', security: [{ oauth: ['notes.readonly'] }, { oauth: ['notes'] }] },
      post: { operationId: 'notes.create', security: [{ oauth: ['notes'] }] },
    },
  },
  components: {
    securitySchemes: {
      oauth: {
        type: 'oauth2',
        flows: {
          authorizationCode: {
            authorizationUrl: 'https://id.notes.example/authorize',
            tokenUrl: 'https://id.notes.example/token',
            scopes: { 'notes.readonly': 'See your notes', notes: 'See, edit and delete your notes' },
          },
        },
      },
    },
  },
};

/**
 * The resource file of a person's GitHub issues reached over GitHub's MCP server (a stored `tools/list`,
 * test/fixtures/specs/github-tools-list.json, whose create_issue has `readOnlyHint: false`): one operation,
 * `create-issue`. `pin`: the lines that pin the stored spec ('' for none); `readOnly`: the author marks the
 * operation `readOnly: true`; `method`: an `apiOperationSpec.httpMethod` for it.
 */
export function githubIssuesResource(
  pin: string,
  options: { readOnly?: boolean; method?: string } = {},
): string {
  return `id: github
interactionProtocol: MCP
owner: CONSUMER
displayName: GitHub issues
description: Your repositories' issues.
spec:
  resourcePath: create_issue
${pin}operations:
  - id: create-issue
    description: Opens an issue in one of your repositories.
${options.readOnly ? '    readOnly: true\n' : ''}${options.method ? `    apiOperationSpec: { httpMethod: ${options.method} }\n` : ''}`;
}

/** An access that files GitHub issues as the person ({@link githubIssuesResource}), without asking first. */
export const FILE_GITHUB_ISSUE = {
  id: 'file-issue',
  operation: 'create-issue',
  identityUsed: 'END_USER',
  confirmationRequired: false,
  accessJustification: 'To file bugs you report.',
  necessity: 'OPTIONAL',
};
