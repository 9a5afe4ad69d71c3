/**
 * `npm run new`: the files of a publisher's own project, made from nothing but its domain, organization
 * and namespace (DESIGN.md §1 for the layout). One documented starter agent and one starter
 * resource, an empty `public/`, a `.gitignore` that keeps keys and builds out of git, and a short README
 * for the publisher. Nothing of the example publisher is copied. The project is an npm project: its
 * `package.json` pins the ardsite that made it (exact version, npm's package.json `dependencies`) and
 * names its commands as scripts, and a GitHub Actions workflow builds it with the key from a secret and
 * deploys it to GitHub Pages (GitHub's `actions/deploy-pages`).
 */
import { ardsiteVersion } from './app-root.js';
import { isFqdn } from '../ard/urn.js';

/** What `npm run new` is told. */
export interface NewProjectOptions {
  /** The site's domain, a lower-case FQDN (`agents.acme.com`). */
  domain: string;
  /** The publisher's name (`Acme Inc.`). */
  organization: string;
  /** The URN namespace (`[a-z0-9._-]+`); default `agents`. */
  namespace?: string;
  /** The publisher's main web site; default `https://<domain>/`. */
  organizationUrl?: string;
  /** The ardsite version the project pins (semver, exact); default the running one's. */
  ardsiteVersion?: string;
}

/** Slug of the starter agent (content/agents/<slug>.md) and id of the starter resource. */
export const STARTER_AGENT = 'helper';
export const STARTER_RESOURCE = 'public-holidays';

/**
 * The reasons `options` cannot make a project, every one of them (empty when they can). A `domain` or
 * `organization` not given is not one: the command line says that it is missing.
 */
export function newProjectProblems(options: Partial<NewProjectOptions>): string[] {
  const problems: string[] = [];
  if (options.domain !== undefined && !isFqdn(options.domain))
    problems.push(
      `--domain "${options.domain}" is not a lower-case domain name (no scheme, port or trailing dot), e.g. agents.acme.com`,
    );
  if (options.organization !== undefined && options.organization.trim() === '')
    problems.push('--organization must name the publisher');
  if (options.namespace !== undefined && !/^[a-z0-9._-]+$/.test(options.namespace))
    problems.push(`--namespace "${options.namespace}" must match [a-z0-9._-]+`);
  if (options.organizationUrl !== undefined && !/^https:\/\/[^\s]+$/.test(options.organizationUrl))
    problems.push(`--organization-url "${options.organizationUrl}" must be an https URL`);
  return problems;
}

/** A YAML double-quoted scalar for any text (JSON strings are valid YAML). */
function yamlString(text: string): string {
  return JSON.stringify(text);
}

function publisherYaml(o: Required<NewProjectOptions>): string {
  return `# Who publishes this site. Every field: docs/reference.md of ardsite ("publisher.yaml").
domain: ${o.domain}
siteUrl: https://${o.domain}/ # exactly https://<domain>/: the manifest and did:web live at the root
organization: ${yamlString(o.organization)}
organizationUrl: ${o.organizationUrl}
namespace: ${o.namespace} # URNs: urn:air:${o.domain}:${o.namespace}:<agent slug>
primaryAgent: ${STARTER_AGENT} # also served at /.well-known/agent-card.json
# privacyPolicyUrl: https://${o.domain}/privacy
# contactEmail: agents@${o.domain}
`;
}

function starterAgent(o: Required<NewProjectOptions>): string {
  return `---
# A starter agent: replace every value with your agent's. The field names are those of the A2A
# AgentCard (v1.0) and of the Resource Access Manifest (RAM); all of them are in docs/reference.md.
name: ${yamlString(`${o.organization} Holiday Helper`)}
description: Tells you which days are public holidays in a country, so you can plan around them.
version: 1.0.0
interfaces:
  # Where your agent answers A2A requests. The '0.3' interface also serves v0.3 clients.
  - url: https://${o.domain}/a2a/${STARTER_AGENT}
    protocolBinding: JSONRPC
    protocolVersion: '1.0'
  - url: https://${o.domain}/a2a/${STARTER_AGENT}/v0.3
    protocolBinding: JSONRPC
    protocolVersion: '0.3'
defaultInputModes: [text/plain]
defaultOutputModes: [text/plain]
skills:
  - id: list-holidays
    name: List public holidays
    description: Lists the public holidays of a country in a year.
    tags: [calendar, holidays]
    examples:
      - Which days are public holidays in Portugal this year?
      - Is next Monday a holiday in Germany?
# The RAM: what the agent may touch, as whom, why and how much it needs it. The operation is
# declared in content/resources/${STARTER_RESOURCE}.yaml.
resourceAccesses:
  - id: read-holidays
    operation: ${STARTER_RESOURCE}-list
    identityUsed: AGENT # the agent's own access; END_USER would be the user's account
    accessJustification: To look up the public holidays of the country you ask about.
    necessity: REQUIRED
    skills: [list-holidays]
---

The ${o.organization} Holiday Helper answers questions about public holidays. It reads a public
holiday calendar with its own access: it never reaches any of your accounts.

This text is the long description shown on the agent's page; write it in Markdown.
`;
}

function starterResource(): string {
  return `# A starter resource of the RAM catalog: an outside service the agents use, with its operations.
# Every field: docs/reference.md of ardsite ("Resources").
id: ${STARTER_RESOURCE}
interactionProtocol: REST # REST, MCP (an MCP server's tools) or A2A (another agent)
owner: THIRD_PARTY # THIRD_PARTY: an outside service; CONSUMER: the user's own account
displayName: Public holiday calendar
description: A public web service that lists the public holidays of each country.
developerDocumentationUrl: https://date.nager.at/Api
operations:
  - id: ${STARTER_RESOURCE}-list
    description: Lists the public holidays of a country in a year.
    readOnly: true # it changes nothing: permission pages say "read"
    apiOperationSpec:
      httpMethod: GET
`;
}

const GITIGNORE = `# Never commit the signing key: it is the site's identity (did:web).
.ardsite/
# Builds.
dist/
dist.old/
dist-server/
dist-server.old/
.vercel/
.astro/
.ardsite-tmp-*/
node_modules/
`;

/** The npm package name of the project: its domain, dots as dashes (`agents-acme-com`). */
function packageName(domain: string): string {
  return domain.replaceAll('.', '-');
}

/**
 * npm `overrides` of the project (npm package.json `overrides`, npm 8.3+): the undici that Astro's font
 * resolver, unifont, gets. unifont 0.7 declares undici 8, which needs Node 22.19 and does not load on Node
 * 20 (its zstd decoder needs a `node:zlib` export Node 20 lacks), so `npm install` warns EBADENGINE and
 * unifont's one use of it, installing a proxy dispatcher when `HTTPS_PROXY` is set, fails silently. Its
 * four imports (`Agent`, `EnvHttpProxyAgent`, `getGlobalDispatcher`, `setGlobalDispatcher`) are undici
 * 6's too, the line ardsite's own dependencies already use (Node 18.17+), so the project installs that
 * one, once. The packed package's test installs a new project and loads unifont's proxy path with it.
 */
export const PROJECT_OVERRIDES = { unifont: { undici: '^6.28.0' } } as const;

/**
 * npm 11's `allowScripts` of the project (`npm install-scripts deny`): the dependencies' install scripts
 * npm would skip and list after every install. Both are denied, so npm stops asking and nothing runs:
 * esbuild's postinstall checks the binary of its platform package and links it in place of the JS
 * launcher (fetching it only when optional dependencies were left out), and sharp's builds libvips from
 * source only when no prebuilt package fits the platform; `check`, `build` and `verify` of a new project
 * pass without them. npm before 11 ignores the field and runs them.
 */
export const PROJECT_ALLOW_SCRIPTS = { esbuild: false, sharp: false } as const;

/**
 * The project's package.json: ardsite pinned to the exact version, its commands as scripts, and what
 * keeps `npm install` quiet on Node 20 and npm 11 ({@link PROJECT_OVERRIDES}, {@link PROJECT_ALLOW_SCRIPTS}).
 */
function packageJson(o: Required<NewProjectOptions>): string {
  const manifest = {
    name: packageName(o.domain),
    private: true,
    description: `${o.organization}: AI agents at https://${o.domain}/`,
    type: 'module',
    scripts: {
      check: 'ardsite check',
      dev: 'ardsite dev',
      build: 'ardsite build',
      preview: 'ardsite preview',
      verify: 'ardsite verify --root .',
      release: 'ardsite release',
      diff: 'ardsite diff',
      specs: 'ardsite specs',
      pin: 'ardsite pin',
      keygen: 'ardsite keygen',
      import: 'ardsite import',
    },
    dependencies: { ardsite: o.ardsiteVersion },
    overrides: PROJECT_OVERRIDES,
    allowScripts: PROJECT_ALLOW_SCRIPTS,
    engines: { node: '>=20.3' },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * The GitHub Actions workflow: on a push to main, builds with the key from the repository secret
 * `ARDSITE_SIGNING_KEY` (the date of the last commit as the build time) and deploys `dist/` to GitHub Pages.
 */
const DEPLOY_WORKFLOW = `name: Deploy
on:
  push:
    branches: [main]
  workflow_dispatch:
permissions:
  contents: read
  pages: write
  id-token: write
concurrency:
  group: pages
  cancel-in-progress: false
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0 # each agent's updatedAt is the date of its last commit
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci
      - run: SOURCE_DATE_EPOCH=$(git log -1 --format=%ct) npm run build
        env:
          ARDSITE_SIGNING_KEY: \${{ secrets.ARDSITE_SIGNING_KEY }}
      - run: npm run verify
      - uses: actions/upload-pages-artifact@v5
        with:
          path: dist
          include-hidden-files: true # keeps .well-known/ (and .nojekyll)
  deploy:
    needs: build
    runs-on: ubuntu-latest
    environment:
      name: github-pages
      url: \${{ steps.deployment.outputs.page_url }}
    steps:
      - id: deployment
        uses: actions/deploy-pages@v4
`;

function readme(o: Required<NewProjectOptions>): string {
  return `# ${o.organization}: AI agents at https://${o.domain}/

This folder is the publisher project of ${o.organization}, built with ardsite ${o.ardsiteVersion}, which
\`package.json\` pins. \`npm install\` once (commit the \`package-lock.json\` it writes: CI installs from it), then:

\`\`\`sh
npm run check     # every error and warning of every file
npm run dev       # pages served while you write, reloaded on each change
npm run build     # signs and builds the site into dist/
npm run preview   # serves dist/ with its headers
npm run verify    # checks dist/ as a crawler would
\`\`\`

Upgrading ardsite: \`npm install --save-exact ardsite@<version>\`, then \`npm run build\` and \`npm run diff\`
against the site as deployed.

\`\`\`
content/publisher.yaml      who publishes: domain, organization, namespace, links, signing
content/agents/*.md         one file per agent: its card, discovery signals and RAM, then its page text
content/resources/*.yaml    the outside services and user accounts your agents use, with their operations
content/entries/*.yaml      other ARD entries to list (an MCP server card, a partner's agent), if any
public/                     files served as they are (an MCP server card an entry points at, …)
\`\`\`

The first build makes the site's signing key in \`.ardsite/keys/signing.jwk.json\`. It is your site's
identity: back it up, never commit it (\`.gitignore\` keeps it out).

Deploying: \`.github/workflows/deploy.yml\` builds and deploys to GitHub Pages on every push to main. Store
the key file's text as the repository secret \`ARDSITE_SIGNING_KEY\`, and choose GitHub Actions as the
Pages source. Any other static host serving https://${o.domain}/ takes \`dist/\` the same way: build
command \`npm run build\` with that secret, publish folder \`dist\`; the build writes the headers file
of Netlify and Cloudflare Pages (\`dist/_headers\`).

Every field of every file, with its type, default and an example: \`docs/reference.md\` in ardsite.
To start from an existing A2A AgentCard: \`npm run import -- <card file or URL>\`.
`;
}

/**
 * The files of a new project: project-relative path → text. `public/` is listed as an empty folder
 * (`public/` → `null`). Throws an `Error` naming every problem when {@link newProjectProblems} finds any.
 */
export function newProjectFiles(options: NewProjectOptions): Map<string, string | null> {
  const problems = newProjectProblems(options);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  const o: Required<NewProjectOptions> = {
    domain: options.domain,
    organization: options.organization.trim(),
    namespace: options.namespace ?? 'agents',
    organizationUrl: options.organizationUrl ?? `https://${options.domain}/`,
    ardsiteVersion: options.ardsiteVersion ?? ardsiteVersion(),
  };
  return new Map<string, string | null>([
    ['content/publisher.yaml', publisherYaml(o)],
    [`content/agents/${STARTER_AGENT}.md`, starterAgent(o)],
    [`content/resources/${STARTER_RESOURCE}.yaml`, starterResource()],
    ['public/', null],
    ['.gitignore', GITIGNORE],
    ['README.md', readme(o)],
    ['package.json', packageJson(o)],
    ['.github/workflows/deploy.yml', DEPLOY_WORKFLOW],
  ]);
}
