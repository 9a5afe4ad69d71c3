/**
 * Loading the two shared fixture sites: `content-valid` gives a clean model, and one run over
 * `content-broken` reports every planted fault of every file with its code, file, field path and line
 * (DESIGN.md §1 "all errors of all files are reported in one run").
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { prepareBuild } from '../../../src/core/build/prepare.js';
import { loadAndCheck, type CheckedContent } from '../../../src/core/content/index.js';
import { ArdsiteError, withDiagnosticsInMessage } from '../../../src/core/util/errors.js';
import { PLANTED_FAULTS } from '../../helpers/broken-site.js';
import { fixture } from '../../helpers/site.js';

describe('content-valid', () => {
  let result: CheckedContent;
  beforeAll(async () => {
    result = await loadAndCheck({ root: fixture('content-valid') });
  });

  it('has no errors and no warnings', () => {
    expect(result.diagnostics).toEqual([]);
  });

  it('loads both agents, the resources and the entry', () => {
    const model = result.model!;
    expect(model.agents.map((a) => a.slug)).toEqual(['note-taker', 'weather-reporter']);
    expect(model.agents.map((a) => a.identifier)).toEqual([
      'urn:air:agents.valid.example:demo:note-taker',
      'urn:air:agents.valid.example:demo:weather-reporter',
    ]);
    expect([...model.resources.keys()].sort()).toEqual(['forecast-mcp', 'notes-api']);
    expect([...model.operations.keys()].sort()).toEqual([
      'forecast-mcp-call',
      'notes-api-create',
      'notes-api-list',
    ]);
    expect(model.entries).toHaveLength(1);
    expect(model.entries[0]).toMatchObject({
      slug: 'notes-mcp',
      own: true,
      publicFile: 'public/mcp/notes.json',
    });
  });

  it('normalises the snake_case inline resource and access of weather-reporter', () => {
    const agent = result.model!.agents.find((a) => a.slug === 'weather-reporter')!;
    expect(agent.ram.resources.map((r) => r.id)).toEqual(['forecast-mcp', 'notes-api']);
    expect(agent.ram.resources[0]).toEqual({
      id: 'forecast-mcp',
      interactionProtocol: 'MCP',
      owner: 'THIRD_PARTY',
      displayName: 'Forecast MCP tool',
      description: 'Weather forecasts for any place.',
    });
    expect(agent.ram.resourceAccesses[0]).toEqual({
      id: 'fetch-forecast',
      operation: 'forecast-mcp-call',
      identityUsed: 'AGENT',
      confirmationRequired: false,
      accessJustification: 'To fetch the forecast; the weather service sees the place, never who you are.',
      necessity: 'REQUIRED',
    });
  });

  it('keeps authoring-only data out of the emitted RAM and in the model', () => {
    const model = result.model!;
    const noteTaker = model.agents.find((a) => a.slug === 'note-taker')!;
    const emitted = JSON.stringify(noteTaker.ram);
    expect(emitted).not.toContain('manageAccessUrl');
    expect(emitted).not.toContain('skills');
    expect(JSON.stringify(model.agents.find((a) => a.slug === 'weather-reporter')!.ram)).not.toContain(
      'readOnly',
    );
    expect(model.resources.get('notes-api')!.manageAccessUrl).toBe(
      'https://www.valid.example/account/connections',
    );
    expect(model.operations.get('forecast-mcp-call')!.readOnly).toBe(true);
    expect(noteTaker.skillAccesses).toEqual({ 'take-notes': ['read-notes', 'write-notes'] });
  });
});

describe('content-broken: one run reports every fault', () => {
  let result: CheckedContent;
  beforeAll(async () => {
    result = await loadAndCheck({ root: fixture('content-broken') });
  });

  it.each(PLANTED_FAULTS)('$name → $code at $file:$line', (fault) => {
    const found = result.diagnostics.filter((d) => d.code === fault.code && d.file === fault.file);
    expect(found).toHaveLength(1);
    const [d] = found;
    expect(d).toMatchObject({ severity: 'error', line: fault.line });
    expect(d!.path).toBe(fault.path);
    if (fault.message) expect(d!.message).toMatch(fault.message);
  });

  it('reports exactly the planted faults, no follow-on errors and no warnings', () => {
    const seen = result.diagnostics.map((d) => `${d.severity} ${d.code} ${d.file}:${d.line} ${d.path}`);
    const planted = PLANTED_FAULTS.map((f) => `error ${f.code} ${f.file}:${f.line} ${f.path}`);
    expect(seen).toEqual(planted);
  });

  it('covers several files in the one run', () => {
    const files = new Set(result.diagnostics.map((d) => d.file));
    expect(files.size).toBeGreaterThanOrEqual(9);
  });

  it('still loads the publisher with a bad siteUrl, and the agents that validate', () => {
    expect(result.model?.publisher.domain).toBe('example.github.io');
    expect(result.model?.agents.map((a) => a.slug)).toEqual(['flights']);
  });

  it('emits no dangling operation or resource into the RAM', () => {
    const flights = result.model!.agents[0]!;
    expect(flights.ram.operations.map((o) => o.id)).toEqual([
      'loyalty-balance',
      'seat-map-get',
      'calendar-insert',
      'calendar-list',
    ]);
    expect(flights.ram.resources.map((r) => r.id)).toEqual(['loyalty', 'calendar']);
    // The conflicting second definition is not merged: the first file's description stays.
    expect(result.model!.resources.get('calendar')!.resource.description).toBe("The user's calendar.");
  });
});

describe('the dev server’s error (npm run dev shows only a message)', () => {
  it('names every file, field and line at fault, as npm run check does', async () => {
    const error = await prepareBuild({ root: fixture('content-broken'), env: {} }).then(
      () => undefined,
      (e: unknown) => withDiagnosticsInMessage(e),
    );
    expect(error).toBeInstanceOf(ArdsiteError);
    const message = (error as ArdsiteError).message;
    expect(message).toMatch(/^the content has errors; nothing was built:\n/);
    for (const fault of PLANTED_FAULTS) {
      const at = `E  ${fault.file}:${fault.line}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(message).toMatch(new RegExp(`${at}[: ]`));
      expect(message).toContain(`[${fault.code}]`);
    }
  });

  it('leaves other errors as they are', () => {
    const plain = new Error('disk full');
    expect(withDiagnosticsInMessage(plain)).toBe(plain);
    const keyError = new ArdsiteError('KEY_MISSING', 'no key');
    expect(withDiagnosticsInMessage(keyError)).toBe(keyError);
  });
});
