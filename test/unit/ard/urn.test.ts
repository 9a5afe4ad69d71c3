/**
 * `urn:air` identifiers (ARD draft §3.4, RFC 8141; DESIGN.md §2): ardsite's own rule, and the wider
 * rule by which a verifier and a registry read any publisher's identifier.
 */
import { describe, expect, it } from 'vitest';
import { parseAirUrn } from '../../../src/core/ard/urn.js';

describe('parseAirUrn', () => {
  it('reads the parts of an identifier under both rules', () => {
    for (const rule of ['ardsite', 'ard'] as const) {
      expect(parseAirUrn('urn:air:example.com:travel:flight-finder', rule)).toEqual({
        domain: 'example.com',
        namespace: 'travel',
        name: 'flight-finder',
      });
    }
  });

  it("ardsite's own rule: lower case, [a-z0-9._-] segments", () => {
    expect(parseAirUrn('urn:air:Example.com:travel:x')).toMatch(/lower-case domain name/);
    expect(parseAirUrn('urn:air:example.com:travel:Flight_Finder')).toMatch(/must match \[a-z0-9._-\]\+/);
    expect(parseAirUrn('URN:AIR:example.com:travel:x')).toMatch(/is not of the form/);
  });

  it("any publisher's rule: urn, air and the domain in any case (the domain read in lower case), RFC 8141 segments", () => {
    expect(parseAirUrn('URN:Air:Example.COM:Travel:Flight_Finder~2', 'ard')).toEqual({
      domain: 'example.com',
      namespace: 'Travel',
      name: 'Flight_Finder~2',
    });
    expect(parseAirUrn('urn:air:example.com:travel:caf%C3%A9', 'ard')).not.toBeTypeOf('string');
    expect(parseAirUrn('urn:air:example.com:team/a:b', 'ard')).toMatchObject({ namespace: 'team/a' });
    expect(parseAirUrn('urn:air:example.com:/a:b', 'ard')).toMatch(/RFC 8141/);
    expect(parseAirUrn('urn:air:example.com:travel:a b', 'ard')).toMatch(/RFC 8141/);
    expect(parseAirUrn('urn:air:example.com:travel:%zz', 'ard')).toMatch(/RFC 8141/);
  });

  it('refuses under both rules what is no domain-anchored identifier', () => {
    for (const rule of ['ardsite', 'ard'] as const) {
      for (const bad of [
        'urn:air:192.168.1.1:agents:x',
        'urn:air:example.com.:agents:x',
        'urn:air:localhost:agents:x',
        'urn:air:example.com:agents',
        'urn:air:example.com:agents:x:y',
        'urn:isbn:example.com:agents:x',
        'urn:air:example.com::x',
      ]) {
        expect(parseAirUrn(bad, rule), `${rule} ${bad}`).toBeTypeOf('string');
      }
    }
  });
});
