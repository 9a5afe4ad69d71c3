import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { makeTempOutput } from '../../../src/core/build/output.js';

describe('makeTempOutput', () => {
  it('makes a folder a web server running as another user can read (0755, not mkdtemp 0700)', async () => {
    const dir = await makeTempOutput(tmpdir());
    try {
      expect((await stat(dir)).mode & 0o777).toBe(0o755);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
