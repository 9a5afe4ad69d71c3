/**
 * A field written one level too deep says where it belongs: `specFile` under a resource's `spec:` (the
 * schema wants it at the top level of the resource, beside `spec:`), as the README once showed it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadAndCheck } from '../../../src/core/content/index.js';
import { lineOf, makeSite, removeSites } from '../../helpers/site.js';

afterAll(removeSites);

const RESOURCE = `id: notes
interactionProtocol: REST
owner: THIRD_PARTY
displayName: Notes
description: A notes service.
spec:
  specUrl: https://notes.example/openapi.json
  specFile: content/specs/notes.json
operations:
  - id: list
    description: Lists notes
    apiOperationSpec: { httpMethod: GET }
`;

describe('specFile under spec:', () => {
  it('is an unknown key that says it belongs one level up, beside spec:', async () => {
    const root = await makeSite({ 'content/resources/notes.yaml': RESOURCE });
    const { diagnostics } = await loadAndCheck({ root });
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'SCHEMA_UNKNOWN_KEY',
        file: 'content/resources/notes.yaml',
        line: lineOf(RESOURCE, 'specFile:'),
        path: 'spec.specFile',
        message: 'unknown key "specFile" here: it belongs one level up, beside "spec:", not under it',
      }),
    ]);
  });
});
