import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArdsiteError } from '../../../src/core/util/errors.js';
import { DEV_CONTENT_HINT, devOverlayError, type DevOverlayError } from '../../../src/lib/dev-error.js';

const root = '/projects/acme';

describe('devOverlayError (npm run dev)', () => {
  it('points the overlay at the first content file at fault, with the problems in the message and no ardsite frames', () => {
    const error = new ArdsiteError('BUILD_CONTENT_INVALID', 'the content has 2 errors', [
      { code: 'SCHEMA_INVALID_VALUE', severity: 'warning', message: 'w', file: 'content/a.md', line: 1 },
      { code: 'SCHEMA_REQUIRED', severity: 'error', message: 'no name', file: 'content/publisher.yaml' },
      {
        code: 'SCHEMA_INVALID_VALUE',
        severity: 'error',
        message: 'not a URL',
        file: 'content/agents/helper.md',
        path: 'url',
        line: 7,
        column: 6,
      },
    ]);
    const shown = devOverlayError(error, root) as DevOverlayError;
    expect(shown.loc).toEqual({ file: '/projects/acme/content/agents/helper.md', line: 7, column: 6 });
    expect(shown.hint).toBe(DEV_CONTENT_HINT);
    expect(shown.message).toContain('content/publisher.yaml  no name  [SCHEMA_REQUIRED]');
    expect(shown.message).toContain('content/agents/helper.md:7:6  url  not a URL');
    expect(shown.stack).toBe('');
  });

  it('gives the file relative to Astro’s root, which Astro joins back onto it, for a project outside the app', () => {
    const error = new ArdsiteError('BUILD_CONTENT_INVALID', 'bad', [
      { code: 'SCHEMA_REQUIRED', severity: 'error', message: 'x', file: 'content/agents/a.md', line: 2 },
    ]);
    const shown = devOverlayError(error, root, '/opt/ardsite') as DevOverlayError;
    expect(shown.loc).toEqual({ file: '../../projects/acme/content/agents/a.md', line: 2, column: 1 });
    expect(path.join('/opt/ardsite', shown.loc!.file)).toBe('/projects/acme/content/agents/a.md');
  });

  it('gives no loc for a file outside the project, or for a diagnostic without a line', () => {
    const error = new ArdsiteError('BUILD_CONTENT_INVALID', 'bad', [
      { code: 'FILE_UNREADABLE', severity: 'error', message: 'x', file: '../elsewhere.md', line: 3 },
      { code: 'FILE_UNREADABLE', severity: 'error', message: 'y', file: 'content/b.md' },
    ]);
    const shown = devOverlayError(error, root) as DevOverlayError;
    expect(shown.loc).toBeUndefined();
    expect(shown.hint).toBe(DEV_CONTENT_HINT);
  });

  it('leaves an ardsite error without content findings (a missing key) as it is, stack and all', () => {
    const error = new ArdsiteError('KEY_MISSING', 'no signing key');
    const stack = error.stack;
    expect(devOverlayError(error, root)).toBe(error);
    expect(error.stack).toBe(stack);
    expect((error as DevOverlayError).hint).toBeUndefined();
  });

  it('says only its name and code in toString(), so that Astro keeps the hint for a message naming `window`', () => {
    const error = new ArdsiteError('BUILD_CONTENT_INVALID', 'bad', [
      { code: 'SCHEMA_REQUIRED', severity: 'error', message: 'x', file: 'content/agents/window.md', line: 2 },
    ]);
    const shown = devOverlayError(error, root) as DevOverlayError;
    expect(String(shown)).toBe('ArdsiteError: BUILD_CONTENT_INVALID');
    expect(shown.message).toContain('content/agents/window.md');
  });

  it('leaves an error that is not ardsite’s finding as it is, stack and all', () => {
    const bug = new TypeError('x is undefined');
    const stack = bug.stack;
    expect(devOverlayError(bug, root)).toBe(bug);
    expect(bug.stack).toBe(stack);
    expect((bug as Partial<DevOverlayError>).loc).toBeUndefined();
  });
});
