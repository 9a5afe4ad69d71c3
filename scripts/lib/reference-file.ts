/**
 * docs/reference.md as `npm run reference` writes it: the field reference of src/core/schema/reference.ts,
 * formatted by Prettier with the project's settings so that `npm run lint` accepts it as written.
 */
import { resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { renderReference } from '../../src/core/schema/reference.js';

/** Path of the generated reference inside the ardsite checkout `engineRoot`. */
export function referencePath(engineRoot: string): string {
  return resolve(engineRoot, 'docs/reference.md');
}

/** The exact text docs/reference.md should hold (Markdown, Prettier-formatted). */
export async function formattedReference(engineRoot: string): Promise<string> {
  const path = referencePath(engineRoot);
  const options = (await resolveConfig(path)) ?? {};
  return format(renderReference(), { ...options, filepath: path });
}
