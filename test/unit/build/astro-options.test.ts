/**
 * The Astro integration's options (src/astro/options.ts) and its merge of ardsite's files into the site's
 * output (src/astro/merge-output.ts): bad options are an AstroUserError naming each, with a hint; the
 * `rel="ard"` link (ARD draft §3.1) is added once, before `</head>`; a file both write is a conflict; the
 * signing key is named by its path from the site's root, a key the build created as a warning; in
 * `astro dev`, Vite's watcher is told to ignore ardsite's temporary build folders, and the log lines do
 * not repeat the `[ardsite]` label Astro's logger puts before them.
 */
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../../src/astro/options.js';
import { addArdLink, ARD_LINK_TAG, findConflicts } from '../../../src/astro/merge-output.js';
import { keyMessage } from '../../../src/astro/build-ardsite.js';
import { builtMessage, unlabelled, WATCH_IGNORED } from '../../../src/astro/dev-server.js';
import ardsite from '../../../src/astro/integration.js';

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

describe('the integration in astro dev', () => {
  it('gives Vite server.watch.ignored patterns of ardsite’s temporary build folders at config setup', async () => {
    const updates: unknown[] = [];
    const hook = ardsite().hooks['astro:config:setup']!;
    await (hook as (params: unknown) => Promise<void>)({
      config: { root: new URL('file:///site/') },
      command: 'dev',
      logger: { info() {}, warn() {} },
      updateConfig: (update: unknown) => updates.push(update),
    });
    expect(updates).toEqual([{ vite: { server: { watch: { ignored: WATCH_IGNORED } } } }]);
    expect(WATCH_IGNORED).toEqual(['**/.ardsite-tmp-*', '**/.ardsite-tmp-*/**']);
  });

  it('logs a build without the integration’s name a second time', () => {
    const text = builtMessage({ siteRoot: '/site', project: '/site/ardsite' }, 42);
    expect(text).toBe('built 42 files from ardsite/content');
    expect(unlabelled('ardsite: the content has 1 error(s)')).toBe('the content has 1 error(s)');
    expect(unlabelled('no label here')).toBe('no label here');
  });
});
