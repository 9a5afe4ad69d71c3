/**
 * The checks of the publisher's other entries (content/entries/*.yaml; DESIGN.md §1, §5; ARD draft §3.3,
 * §3.4, §6.2): URN, (identifier, version) unique across agents and entries, url XOR data, a site path
 * url served by this site, https, a digest for an own entry pointing outside, no hand-written
 * trustManifest on an own entry, no attestations on a foreign one, and 2 to 5 representative queries.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { httpsUrlProblem } from '../schema/common.js';
import { parseAirUrn } from '../ard/urn.js';
import type { Reporter } from './check-reporter.js';
import type { ContentModel } from '../model/content.js';

/** Checks every entry of `model.entries` and records what it finds into `r`. */
export function checkEntries(model: ContentModel, r: Reporter): void {
  const seen = new Map<string, string>();
  const key = (identifier: string, version?: string) => `${identifier}\u0000${version ?? ''}`;
  for (const agent of model.agents) seen.set(key(agent.identifier, agent.front.version), agent.file);
  for (const e of model.entries) {
    const { entry, source } = e;
    const urn = parseAirUrn(entry.identifier);
    if (typeof urn === 'string') r.add(source, ['identifier'], 'ARD_URN_INVALID', urn);
    const k = key(entry.identifier, entry.version);
    const other = seen.get(k);
    if (other)
      r.add(
        source,
        ['identifier'],
        'ARD_DUPLICATE_ENTRY',
        `identifier "${entry.identifier}"${entry.version ? ` version ${entry.version}` : ''} is already used by ${other}`,
      );
    else seen.set(k, e.file);

    if ((entry.url === undefined) === (entry.data === undefined)) {
      r.add(
        source,
        [],
        'ARD_URL_XOR_DATA',
        'an entry needs exactly one of url (a link to the artifact) and data (the artifact inline), ARD draft §3.3',
      );
    }
    if (entry.url !== undefined) {
      if (entry.url.startsWith('/')) {
        if (!e.own) {
          r.add(
            source,
            ['url'],
            'SCHEMA_INVALID_VALUE',
            "a site path url is served by this site, so the entry is ours: its identifier must name this site's domain",
          );
        } else if (e.publicFile && !existsSync(path.join(model.root, e.publicFile))) {
          r.add(
            source,
            ['url'],
            'FILE_MISSING',
            `url "${entry.url}" points at ${e.publicFile ?? 'a file'} under public/, which does not exist`,
          );
        }
      } else {
        const problem = httpsUrlProblem(entry.url);
        if (problem) r.add(source, ['url'], 'URL_NOT_HTTPS', problem);
        else if (e.own && !entry.digest) {
          r.add(
            source,
            ['url'],
            'ARD_UNPINNED',
            'the entry points outside this site and has no digest, so its signed trustManifest cannot pin the artifact; add digest: sha256:… (npm run pin fetches the artifact and writes it)',
            'warning',
          );
        }
      }
    }
    if (e.own && (entry.trustManifest || entry.trustManifests)) {
      r.add(
        source,
        ['trustManifest'],
        'SCHEMA_INVALID_VALUE',
        "an entry of this site's own domain is signed by the build; remove the hand-written trustManifest",
      );
    }
    if (!e.own && entry.attestations) {
      r.add(
        source,
        ['attestations'],
        'SCHEMA_INVALID_VALUE',
        'attestations are sealed into our own trustManifest; a foreign entry is listed verbatim and never signed by us',
      );
    }
    const queries = entry.representativeQueries ?? [];
    if (queries.length < 2 || queries.length > 5) {
      r.add(
        source,
        ['representativeQueries'],
        'ARD_QUERIES_COUNT',
        `the entry carries ${queries.length} representative ${queries.length === 1 ? 'query' : 'queries'}; ARD asks for 2 to 5`,
        'warning',
      );
    }
  }
}
