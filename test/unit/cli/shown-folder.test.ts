import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { shownFile, shownFolder } from '../../../src/cli/lib/shown-folder.js';

const typedIn = process.env.INIT_CWD;
afterEach(() => {
  if (typedIn === undefined) delete process.env.INIT_CWD;
  else process.env.INIT_CWD = typedIn;
});

describe('how commands name folders and files (INIT_CWD: where the command was typed)', () => {
  it('names what is inside that folder relative to it, and anything else by its absolute path', () => {
    process.env.INIT_CWD = '/home/me/acme-agents';
    expect(shownFolder('/home/me/acme-agents')).toBe('./');
    expect(shownFolder('/home/me/acme-agents/dist')).toBe('dist/');
    expect(shownFolder('/home/me/ardsite')).toBe('/home/me/ardsite/');
    expect(shownFile('/home/me/acme-agents/.ardsite/keys/signing.jwk.json')).toBe(
      path.join('.ardsite', 'keys', 'signing.jwk.json'),
    );
  });

  it('never names a project’s key as the checkout’s own, when npm runs the command in the checkout', () => {
    process.env.INIT_CWD = '/home/me/ardsite';
    expect(shownFile('/home/me/acme-agents/.ardsite/keys/signing.jwk.json')).toBe(
      '/home/me/acme-agents/.ardsite/keys/signing.jwk.json',
    );
  });
});
