/**
 * Whose card an import reads (src/core/import/card-origin.ts) and the address checks before it
 * (src/core/import/card-addresses.ts): sites are registrable domains of the Public Suffix List with its
 * private domains (two github.io sites are two publishers); loopback, IP and host:port addresses name no
 * site; a template address and a relative one without a base are errors naming the field and value.
 */
import { describe, expect, it } from 'vitest';
import type { JsonRecord } from '../../../src/core/a2a/a2a-forms.js';
import { ArdsiteError } from '../../../src/core/util/errors.js';
import { ImportNotes } from '../../../src/core/import/agent-fields.js';
import {
  cardAddresses,
  refuseTemplateAddresses,
  resolveRelativeAddresses,
} from '../../../src/core/import/card-addresses.js';
import { foreignAddresses, foreignDomain } from '../../../src/core/import/card-origin.js';

const card = (url: string, provider?: string): JsonRecord => ({
  name: 'A',
  supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  ...(provider ? { provider: { organization: 'P', url: provider } } : {}),
});

describe('foreignAddresses', () => {
  const publisher = { domain: 'agents.example.com', organizationUrl: 'https://www.example.org/' };

  it('takes another host of the publisher’s registrable domain, or of its organizationUrl, as its own', () => {
    expect(foreignAddresses(card('https://api.example.com/a2a', 'https://example.org/'), publisher)).toEqual(
      [],
    );
  });

  it('lists the addresses on other sites, the URL the card was read from first', () => {
    expect(
      foreignAddresses(
        card('https://api.example.com/a2a', 'https://trips.test/'),
        publisher,
        'https://cards.trips.test/c.json',
      ),
    ).toEqual([
      {
        field: '(read from)',
        value: 'https://cards.trips.test/c.json',
        host: 'cards.trips.test',
        site: 'trips.test',
      },
      { field: 'provider.url', value: 'https://trips.test/', host: 'trips.test', site: 'trips.test' },
    ]);
  });

  it('tells two sites under a shared private suffix apart (github.io)', () => {
    const pages = { domain: 'alice.github.io' };
    expect(foreignAddresses(card('https://alice.github.io/a2a'), pages)).toEqual([]);
    expect(foreignAddresses(card('https://bob.github.io/a2a'), pages).map((a) => a.site)).toEqual([
      'bob.github.io',
    ]);
  });

  it('finds no site in loopback, IP-address or GRPC host:port addresses', () => {
    for (const url of [
      'http://localhost:10999/',
      'https://10.0.0.7/a2a',
      'https://[::1]/a2a',
      'grpc.example.net:443',
    ])
      expect(foreignAddresses(card(url), publisher), url).toEqual([]);
  });

  it('names the foreign domain of an identifier: the host read from, then the provider’s, then an interface’s', () => {
    const found = foreignAddresses(card('https://api.trips.test/a2a', 'https://trips.test/'), publisher);
    expect(foreignDomain(found)).toBe('trips.test');
    expect(foreignDomain(foreignAddresses(card('https://api.trips.test/a2a'), publisher))).toBe(
      'api.trips.test',
    );
  });
});

describe('card addresses', () => {
  it('lists every address field with its path', () => {
    const c = {
      ...card('https://a.test/1', 'https://p.test/'),
      url: 'https://a.test/0',
      documentationUrl: 'https://d.test/',
    };
    expect(cardAddresses(c).map((a) => [a.field, a.isInterface])).toEqual([
      ['supportedInterfaces[0].url', true],
      ['url', true],
      ['provider.url', false],
      ['documentationUrl', false],
    ]);
  });

  it('refuses a template, naming every templated field, its value and the placeholders', () => {
    const c = { ...card('https://{host}/a2a'), url: 'https://<LOOKER_URL>/api/<AGENT_ID>' };
    let error: unknown;
    try {
      refuseTemplateAddresses(c, 'card.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ArdsiteError);
    expect((error as ArdsiteError).code).toBe('IMPORT_TEMPLATE_URL');
    expect((error as ArdsiteError).message).toBe(
      'card.json is a template, not a published card: supportedInterfaces[0].url is "https://{host}/a2a"; url is "https://<LOOKER_URL>/api/<AGENT_ID>". Replace {host}, <LOOKER_URL>, <AGENT_ID> with the real values (or import the card from the address it is published at)',
    );
    expect(() => refuseTemplateAddresses(card('https://a.test/a2a?x=%41'), 'card.json')).not.toThrow();
  });

  it('resolves relative addresses against the base, noting each; leaves absolute and host:port ones', () => {
    const c = {
      ...card('/api/a2a'),
      iconUrl: 'icon.png',
      url: 'grpc.a.test:443',
      documentationUrl: 'https://d.test/',
    };
    const notes = new ImportNotes();
    resolveRelativeAddresses(c, 'https://a.test/cards/card.json', 'card.json', notes);
    expect(cardAddresses(c).map((a) => a.value)).toEqual([
      'https://a.test/api/a2a',
      'grpc.a.test:443',
      'https://d.test/',
      'https://a.test/cards/icon.png',
    ]);
    expect(notes.changed.map((n) => n.field)).toEqual(['supportedInterfaces[0].url', 'iconUrl']);
  });

  it('without a base, refuses a relative interface address and leaves a relative link to the URL checks', () => {
    expect(() =>
      resolveRelativeAddresses(card('/api/a2a'), undefined, 'card.json', new ImportNotes()),
    ).toThrow(/^card\.json: supportedInterfaces\[0\]\.url "\/api\/a2a" is a relative address/);
    const link = { ...card('https://a.test/a2a'), iconUrl: '/icon.png' };
    expect(() => resolveRelativeAddresses(link, undefined, 'card.json', new ImportNotes())).not.toThrow();
    expect(link.iconUrl).toBe('/icon.png');
  });
});
