/**
 * docs/reference/errors.md is generated from the code (scripts/lib/error-reference.ts): every code of
 * `ERROR_CODES` appears once, under its group, with its message and the doc comment that explains it; a
 * code the source declares but the loaded module lacks (or the reverse) stops the generator. The page on
 * disk being what `npm run reference` writes is pinned by test/unit/schema/schema-reference.test.ts.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../src/core/util/errors.js';
import {
  documentedCodes,
  ERRORS_MODULE,
  renderErrorReference,
} from '../../../scripts/lib/error-reference.js';

const engineRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const source = await readFile(resolve(engineRoot, ERRORS_MODULE), 'utf8');

describe('the error-code reference', () => {
  it('documents every code of ERROR_CODES once, in declaration order, with a group and an explanation', () => {
    const codes = documentedCodes(source);
    expect(codes.map((c) => c.code)).toEqual(Object.keys(ERROR_CODES));
    expect(codes.filter((c) => c.group === '').map((c) => c.code)).toEqual([]);
    expect(codes.filter((c) => c.explanation === '').map((c) => c.code)).toEqual([]);
    expect(codes.find((c) => c.code === 'RAM_API_SPEC_NOT_REST')).toMatchObject({
      group: 'the Resource Access Manifest (the RAM proposal)',
      message: ERROR_CODES.RAM_API_SPEC_NOT_REST,
      warning: true,
    });
    expect(codes.find((c) => c.code === 'FILE_UNREADABLE')).toMatchObject({
      group: 'reading files',
      warning: false,
    });
  });

  it('renders a heading per code, with its message', () => {
    const page = renderErrorReference(documentedCodes(source));
    for (const [code, message] of Object.entries(ERROR_CODES)) {
      expect(page.split('\n').filter((l) => l === `### \`${code}\``)).toHaveLength(1);
      expect(page).toContain(message);
    }
  });

  it('refuses a source that declares a code the module does not have', () => {
    const planted = source.replace(
      'export const ERROR_CODES = {',
      "export const ERROR_CODES = {\n  /** Planted. */\n  NOT_A_REAL_CODE: 'x',",
    );
    expect(planted).not.toBe(source);
    expect(() => documentedCodes(planted)).toThrow(/NOT_A_REAL_CODE is not in the loaded ERROR_CODES/);
  });

  it('refuses a source that lacks a code the module has', () => {
    const without = source.replace(/\n\s*FILE_UNREADABLE: [^\n]*/, '');
    expect(without).not.toBe(source);
    expect(() => documentedCodes(without)).toThrow(/not found in the source: FILE_UNREADABLE/);
  });
});
