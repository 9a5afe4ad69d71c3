/**
 * The GitHub Actions workflow `ardsite new` writes (src/core/project/new-project.ts) is a valid workflow: the
 * maintained validator @action-validator/core (the GitHub workflow JSON schema of SchemaStore, and its own
 * checks) finds no error in it, and finds the error of a workflow broken on purpose, so the check can fail.
 */
import { validateWorkflow } from '@action-validator/core';
import { describe, expect, it } from 'vitest';
import { newProjectFiles } from '../../../src/core/project/new-project.js';

/** The workflow file of a project made for agents.acme.test. */
function workflow(): string {
  const files = new Map(newProjectFiles({ domain: 'agents.acme.test', organization: 'Acme' }));
  const text = files.get('.github/workflows/deploy.yml');
  if (typeof text !== 'string') throw new Error('ardsite new writes no .github/workflows/deploy.yml');
  return text;
}

describe('the deploy workflow of a new project', () => {
  it('has no error for the GitHub Actions workflow validator', () => {
    expect(validateWorkflow(workflow()).errors).toEqual([]);
  });

  it('builds with the key from the secret, verifies, and deploys dist/ to Pages', () => {
    const text = workflow();
    expect(text).toContain('ARDSITE_SIGNING_KEY: ${{ secrets.ARDSITE_SIGNING_KEY }}');
    expect(text).toMatch(
      /- run: npm ci\n\s+- run: SOURCE_DATE_EPOCH=\$\(git log -1 --format=%ct\) npm run build\n/,
    );
    expect(text).toContain('- run: npm run verify');
    expect(text).toContain('uses: actions/deploy-pages@');
  });

  it('the validator refuses a job without runs-on (the check can fail)', () => {
    const broken = workflow().replace('    runs-on: ubuntu-latest\n    steps:', '    steps:');
    expect(broken).not.toBe(workflow());
    expect(validateWorkflow(broken).errors).not.toEqual([]);
  });
});
