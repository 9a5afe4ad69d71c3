/**
 * Nothing false on the permission pages, built by the real build command in both languages over
 * test/fixtures/permission-truth (a transit operator): a Gmail receipt reader that names `gmail.readonly`
 * as its needed scope, with the reason (no "asks for more than it needs", the page shows that scope and the
 * reason); a card that asks the rider to sign in with Google and has no RAM (never "does not access any of
 * your accounts"); and a trip planner that acts on the rider's calendar with a card silent on sign-in
 * (never "declares no sign-in"; an optional action's scope is marked optional).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, copyProject, fixedKeyEnv, readTree, removeProjects } from '../helpers/build.js';
import { runCommandInProcess, type ScriptRun } from '../helpers/cli.js';
import { attr, elements, parseHtml, textContent, visibleText, type HtmlDocument } from '../helpers/html.js';
import { fixture } from '../helpers/site.js';

const G = 'https://www.googleapis.com/auth/';
let tree: Map<string, Buffer>;
let check: ScriptRun;

beforeAll(async () => {
  const root = await copyProject(fixture('permission-truth'));
  check = await runCommandInProcess('check.ts', '--root', root);
  const result = await buildProject(root, { env: fixedKeyEnv() });
  if (result.code !== 0) throw new Error(`the fixture did not build:\n${result.stderr}`);
  tree = await readTree(result.outDir);
}, 240_000);

afterAll(removeProjects);

const page = (p: string): HtmlDocument => parseHtml(tree.get(p.replace(/^\//, ''))!.toString('utf8'));
const withAttr = (doc: HtmlDocument, tag: string, name: string) =>
  elements(doc, tag).filter((e) => attr(e, name) !== undefined);

describe('check', () => {
  it('warns only that the Google sign-in card declares nothing done as the rider', () => {
    expect(check.code).toBe(0);
    expect(check.stdout).not.toContain('PERMISSION_SCOPE_BROADER');
    expect(check.stdout).toMatch(
      /linked-account\.md:\d+:\d+ +securitySchemes\.google .*\[SIGN_IN_WITHOUT_RAM_ACCESS\]/,
    );
    expect(check.stdout).toMatch(/0 errors, 1 warning$/m);
  });
});

describe('the Gmail receipt reader (neededScope gmail.readonly, with its reason)', () => {
  it.each([
    [
      '/agents/fare-support/permissions/index.html',
      'The fare and the stops are in the body of the receipt email',
    ],
    [
      '/pt-br/agents/fare-support/permissions/index.html',
      'A tarifa e as paradas estão no corpo do e-mail do recibo',
    ],
  ])('%s: no red box; gmail.readonly and the reason', (path, reason) => {
    const doc = page(path);
    expect(withAttr(doc, 'p', 'data-broader-scope')).toEqual([]);
    const scopes = withAttr(doc, 'li', 'data-scope');
    expect(scopes.map((li) => attr(li, 'data-scope'))).toEqual([`${G}gmail.readonly`]);
    const basis = withAttr(doc, 'p', 'data-scope-basis');
    expect(basis.map((p) => attr(p, 'data-scope-basis'))).toEqual(['needed']);
    expect(textContent(basis[0]!)).toContain(reason);
    // The narrower scope the service lists is named, with Google's own words on what it leaves out.
    expect(textContent(withAttr(doc, 'p', 'data-narrower-scope')[0]!)).toContain('but not the email body');
  });
});

describe('a card that asks the rider to sign in with Google, and has no RAM', () => {
  it.each([
    [
      '/agents/linked-account/permissions/index.html',
      'does not access any of your accounts',
      'Its card asks you to sign in',
    ],
    [
      '/pt-br/agents/linked-account/permissions/index.html',
      'não acessa suas contas',
      'pede que você faça login',
    ],
  ])('%s never says it accesses none of your accounts', (path, falseWords, trueWords) => {
    const text = visibleText(page(path));
    expect(text).not.toContain(falseWords);
    expect(text).toContain(trueWords);
  });

  it('nor does the index, in either language', () => {
    expect(visibleText(page('/index.html'))).not.toContain('does not access any of your accounts');
    expect(visibleText(page('/pt-br/index.html'))).not.toContain('não acessa suas contas');
  });
});

describe('the trip planner: acts on the rider’s calendar, its card silent on sign-in', () => {
  it.each([
    [
      '/agents/trip-planner/index.html',
      'declares no sign-in',
      'It acts as you, with your own account, on Google Calendar',
    ],
    [
      '/pt-br/agents/trip-planner/index.html',
      'não pede login',
      'Ele age em seu nome, com a sua própria conta, em Google Calendar',
    ],
  ])('%s does not say "no sign-in"', (path, falseWords, trueWords) => {
    const text = visibleText(page(path));
    expect(text).not.toContain(falseWords);
    expect(text).toContain(trueWords);
  });

  it('the scope only the optional "add a trip" needs is marked optional, each with the actions it is for', () => {
    const doc = page('/agents/trip-planner/permissions/index.html');
    const marks = withAttr(doc, 'p', 'data-scope-for').map((p) => [
      attr(p, 'data-necessity'),
      textContent(p),
    ]);
    expect(marks).toEqual([
      ['required', expect.stringContaining('For: “Reads your events”.')],
      ['optional', expect.stringContaining('For: “Adds a trip to your calendar”. Optional:')],
    ]);
  });
});
