/**
 * The generated reference pages as `npm run reference` writes them: docs/reference.md (the index of the
 * field reference), one page per file a publisher writes under docs/reference/ (from
 * src/core/schema/reference.ts) and docs/reference/errors.md (./error-reference.ts), each formatted by
 * Prettier with the project's settings so that `npm run lint` accepts it as written.
 */
import { resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';
import {
  REFERENCE_SECTIONS,
  referencePageName,
  renderReference,
  renderReferencePage,
} from '../../src/core/schema/reference.js';
import { errorReference } from './error-reference.js';

/** Path of the index of the field reference inside the ardsite checkout `engineRoot`. */
export function referencePath(engineRoot: string): string {
  return resolve(engineRoot, 'docs/reference.md');
}

/** `text` as Prettier formats a Markdown file at `path`. */
async function formatted(path: string, text: string): Promise<string> {
  const options = (await resolveConfig(path)) ?? {};
  return format(text, { ...options, filepath: path });
}

/**
 * Every generated page: absolute path → the exact text it should hold (Markdown, Prettier-formatted), the
 * index first. Throws what {@link errorReference} throws when the error codes cannot be read.
 */
export async function referenceFiles(engineRoot: string): Promise<Map<string, string>> {
  const pages = new Map<string, string>([[referencePath(engineRoot), renderReference()]]);
  for (const section of REFERENCE_SECTIONS)
    pages.set(
      resolve(engineRoot, 'docs/reference', referencePageName(section)),
      renderReferencePage(section),
    );
  pages.set(resolve(engineRoot, 'docs/reference/errors.md'), await errorReference(engineRoot));
  const out = new Map<string, string>();
  for (const [path, text] of pages) out.set(path, await formatted(path, text));
  return out;
}
