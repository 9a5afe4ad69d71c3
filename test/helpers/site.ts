/**
 * Throw-away publisher folders for tests: `makeSite` writes a default `content/publisher.yaml` plus the
 * given files into a fresh temporary folder; `agentMd` writes a valid agent file with some fields
 * replaced. Small cases live in the test that needs them instead of in one more fixture folder.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';

/** The repository root (the folder of package.json). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A fixture folder under `test/fixtures/`. */
export function fixture(name: string): string {
  return path.join(REPO_ROOT, 'test', 'fixtures', name);
}

/**
 * The example-like site (test/fixtures/example-like/): a copy of the example publisher's `content/` and
 * `public/`. Tests build and read this, never the example at the repository root, which a publisher
 * edits or replaces.
 */
export const EXAMPLE_LIKE = fixture('example-like');

/** The publisher every `makeSite` folder gets unless the test gives its own `content/publisher.yaml`. */
export const DEFAULT_PUBLISHER = `domain: agents.example.test
siteUrl: https://agents.example.test/
organization: Example Test Ltd.
organizationUrl: https://www.example.test/
`;

const made: string[] = [];

/**
 * Writes `files` (project-relative path → text) into a new temporary project folder and returns its
 * absolute path. `content/publisher.yaml` defaults to {@link DEFAULT_PUBLISHER}; a `null` text leaves
 * the file out.
 */
export async function makeSite(files: Record<string, string | null>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'ardsite-test-'));
  made.push(root);
  const all = { 'content/publisher.yaml': DEFAULT_PUBLISHER, ...files };
  for (const [name, text] of Object.entries(all)) {
    if (text === null) continue;
    const file = path.join(root, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  return root;
}

/** Removes every folder `makeSite` created (call from `afterAll`). */
export async function removeSites(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** The front matter of a minimal valid agent: no RAM, two example queries, one https interface. */
export const AGENT_DEFAULTS: Record<string, unknown> = {
  name: 'Test Agent',
  description: 'An agent used by the tests.',
  version: '1.0.0',
  interfaces: [{ url: 'https://api.example.test/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [
    {
      id: 'answer',
      name: 'Answer',
      description: 'Answers questions.',
      tags: ['test'],
      examples: ['What is the answer?', 'Tell me the answer'],
    },
  ],
};

/**
 * An agent Markdown file: {@link AGENT_DEFAULTS} with `fields` laid over them (a field set to
 * `undefined` is removed), then a body.
 */
export function agentMd(fields: Record<string, unknown> = {}, body = 'The agent of the tests.\n'): string {
  const front = Object.fromEntries(
    Object.entries({ ...AGENT_DEFAULTS, ...fields }).filter(([, v]) => v !== undefined),
  );
  return `---\n${stringify(front)}---\n\n${body}`;
}

/** The 1-based line of the `occurrence`-th line of `text` that contains `needle` (throws when absent). */
export function lineOf(text: string, needle: string, occurrence = 1): number {
  let seen = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.includes(needle) && ++seen === occurrence) return i + 1;
  }
  throw new Error(`"${needle}" (occurrence ${occurrence}) is not in the text`);
}
