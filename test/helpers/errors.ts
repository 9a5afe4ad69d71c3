import { ArdsiteError } from '../../src/core/util/errors.js';

/** The code of the ArdsiteError `fn` throws, `undefined` when it throws nothing, or a note when it throws something else. */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof ArdsiteError ? err.code : `not an ArdsiteError: ${String(err)}`;
  }
  return undefined;
}

/** {@link codeOf} for async functions. */
export async function asyncCodeOf(fn: () => unknown): Promise<string | undefined> {
  try {
    await fn();
  } catch (err) {
    return err instanceof ArdsiteError ? err.code : `not an ArdsiteError: ${String(err)}`;
  }
  return undefined;
}
