/**
 * `npm run reference`: writes the generated reference pages: docs/reference.md and one page per file a
 * publisher writes under docs/reference/ (the field reference, from the descriptions, examples and
 * specifications of the schemas in src/core/schema/*.ts), and docs/reference/errors.md (every error code,
 * from src/core/util/errors.ts) and docs/reference/cli.md (the help of every `ardsite` command, from its commander
 * declaration). Fails (exit 1) and names the fields when a schema field has no description,
 * specification or example.
 *
 * Usage: npm run reference [-- --check]   (--check: exit 1 and name the pages that are not up to date)
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingReferenceParts } from '../src/core/schema/reference.js';
import { parseCommandLine } from '../src/cli/lib/args.js';
import { cliReferencePath, formattedCliReference } from './lib/cli-reference.js';
import { referenceFiles } from './lib/reference-file.js';

const { values } = parseCommandLine(
  { options: { check: { type: 'boolean', default: false } } },
  'usage: npm run reference [-- --check]',
);

const engineRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const missing = missingReferenceParts();
if (missing.length > 0) {
  process.stderr.write(`${missing.map((m) => `error SCHEMA_UNDOCUMENTED ${m}`).join('\n')}\n`);
  process.stderr.write(
    `${missing.length} field(s) lack a description, spec or example in src/core/schema/\n`,
  );
  process.exit(1);
}
const pages = await referenceFiles(engineRoot);
pages.set(cliReferencePath(engineRoot), await formattedCliReference(engineRoot));
if (values.check) {
  const stale: string[] = [];
  for (const [path, text] of pages)
    if ((await readFile(path, 'utf8').catch(() => '')) !== text) stale.push(relative(engineRoot, path));
  if (stale.length > 0) {
    process.stderr.write(`out of date: ${stale.join(', ')}: run npm run reference\n`);
    process.exit(1);
  }
  process.stdout.write(`${pages.size} reference pages are up to date\n`);
} else {
  for (const [path, text] of pages) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
    process.stdout.write(`wrote ${relative(engineRoot, path)} (${text.split('\n').length} lines)\n`);
  }
}
