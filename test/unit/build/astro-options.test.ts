/**
 * The Astro integration's options (src/astro/options.ts) and its merge of ardsite's files into the site's
 * output (src/astro/merge-output.ts): bad options are an AstroUserError naming each, with a hint; the
 * `rel="ard"` link (ARD draft §3.1) is added once, before `</head>`; a file both write is a conflict; the
 * signing key is named by its path from the site's root, a key the build created as a warning.
 */
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../../src/astro/options.js';
import { addArdLink, ARD_LINK_TAG, findConflicts } from '../../../src/astro/merge-output.js';
import { keyMessage } from '../../../src/astro/build-ardsite.js';

describe('parseOptions', () => {
  it('fills in the defaults', () => {
    expect(parseOptions(undefined)).toEqual({ project: 'ardsite' });
    expect(parseOptions({ project: 'agents', keyFile: 'k.jwk' })).toEqual({
      project: 'agents',
      keyFile: 'k.jwk',
    });
  });

  it('throws an AstroUserError naming every bad option, with a hint', () => {
    let thrown: unknown;
    try {
      parseOptions({ project: 3, prefx: '/agents/' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ name: 'AstroUserError', type: 'AstroUserError' });
    const { message, hint } = thrown as { message: string; hint: string };
    expect(message).toMatch(/project:/);
    expect(message).toMatch(/prefx/);
    expect(hint).toMatch(/project\?: string/);
  });

  it('takes a pagesPrefix such as /ai, and names one with a trailing slash or capitals', () => {
    expect(parseOptions({ pagesPrefix: '/ai' })).toEqual({ project: 'ardsite', pagesPrefix: '/ai' });
    for (const bad of ['/ai/', 'ai', '/AI']) {
      expect(() => parseOptions({ pagesPrefix: bad })).toThrow(/pagesPrefix: a path such as \/ai/);
    }
  });
});

describe('addArdLink and findConflicts', () => {
  it('adds the link before </head> once, and leaves a page without <head> alone', () => {
    const linked = addArdLink('<html><head><title>t</title></head><body></body></html>');
    expect(linked).toBe(`<html><head><title>t</title>${ARD_LINK_TAG}</head><body></body></html>`);
    expect(addArdLink(linked)).toBe(linked);
    expect(addArdLink('<p>fragment</p>')).toBe('<p>fragment</p>');
  });

  it('names the files both write, the site’s index.html and 404.html excepted', () => {
    const site = ['index.html', '404.html', 'robots.txt', 'about/index.html'];
    const ours = ['index.html', '404.html', 'robots.txt', '.well-known/ard.json'];
    expect(findConflicts(site, ours)).toEqual([{ file: 'robots.txt' }]);
  });
});

describe('keyMessage', () => {
  const key = {
    type: 'key' as const,
    source: '.ardsite/keys/signing.jwk.json',
    kid: 'did:web:a.example#k1',
    created: false,
    ephemeral: false,
    file: '/site/ardsite/.ardsite/keys/signing.jwk.json',
  };

  it('names a key file by its path from the site’s root', () => {
    expect(keyMessage(key, '/site')).toEqual({
      level: 'info',
      text: 'signing key did:web:a.example#k1 from ardsite/.ardsite/keys/signing.jwk.json',
    });
    expect(keyMessage({ ...key, source: 'ARDSITE_SIGNING_KEY', file: undefined }, '/site').text).toBe(
      'signing key did:web:a.example#k1 from ARDSITE_SIGNING_KEY',
    );
  });

  it('warns when the build created the key, saying to keep it out of git', () => {
    const { level, text } = keyMessage({ ...key, created: true }, '/site');
    expect(level).toBe('warn');
    expect(text).toMatch(
      /^created a new signing key did:web:a\.example#k1 in ardsite\/\.ardsite\/keys\/signing\.jwk\.json: /,
    );
    expect(text).toMatch(/never commit it/);
  });
});
