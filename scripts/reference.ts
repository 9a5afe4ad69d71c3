/**
 * `npm run reference`: writes docs/reference.md, the field reference of every file a publisher writes,
 * from the descriptions, examples and specifications of the schemas (src/core/schema/*.ts), and
 * docs/reference/cli.md, the help of every `ardsite` command from its commander declaration. Fails (exit 1)
 * and names the fields when a schema field has no description, specification or example.
 *
 * Usage: npm run reference [-- --check]   (--check: exit 1 when a page is not up to date)
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingReferenceParts } from '../src/core/schema/reference.js';
import { parseCommandLine } from '../src/cli/lib/args.js';
import { cliReferencePath, formattedCliReference } from './lib/cli-reference.js';
import { formattedReference, referencePath } from './lib/reference-file.js';

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
const pages = [
  { name: 'docs/reference.md', path: referencePath(engineRoot), text: await formattedReference(engineRoot) },
  {
    name: 'docs/reference/cli.md',
    path: cliReferencePath(engineRoot),
    text: await formattedCliReference(engineRoot),
  },
];
for (const { name, path, text } of pages) {
  if (values.check) {
    const current = await readFile(path, 'utf8').catch(() => '');
    if (current !== text) {
      process.stderr.write(`${name} is out of date: run npm run reference\n`);
      process.exitCode = 1;
    } else process.stdout.write(`${name} is up to date\n`);
  } else {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
    process.stdout.write(`wrote ${name} (${text.split('\n').length} lines)\n`);
  }
}
