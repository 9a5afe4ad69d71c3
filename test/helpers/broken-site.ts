/**
 * The faults planted in `test/fixtures/content-broken/`, one row each: the unit tests and the CLI test
 * both assert that one run reports every one of them, where it is, and nothing else.
 */
import type { ErrorCode } from '../../src/core/util/errors.js';

/** One expected error of the broken fixture. `path` is undefined for faults about a whole file. */
export interface PlantedFault {
  name: string;
  code: ErrorCode;
  file: string;
  path: string | undefined;
  line: number;
  /** What the message must say beyond the code (a "did you mean", the other file, …). */
  message?: RegExp;
}

/** Every error of `content-broken`, in the order `npm run check` prints them (file, then line). */
export const PLANTED_FAULTS: readonly PlantedFault[] = [
  {
    name: 'a key given twice in front matter, named',
    code: 'YAML_INVALID',
    file: 'content/agents/buses.md',
    path: undefined,
    line: 5,
    message: /the key "description" is given twice in the same mapping/,
  },
  {
    name: 'front matter never closed by a second "---" line',
    code: 'FRONT_MATTER_MISSING',
    file: 'content/agents/ferries.md',
    path: undefined,
    line: 1,
    message: /never closed/,
  },
  {
    name: 'an http: interface url',
    code: 'URL_NOT_HTTPS',
    file: 'content/agents/flights.md',
    path: 'interfaces[0].url',
    line: 6,
    message: /must use https:/,
  },
  {
    name: 'an access id used twice',
    code: 'RAM_DUPLICATE_ID',
    file: 'content/agents/flights.md',
    path: 'resourceAccesses[1].id',
    line: 25,
    message: /"add-to-calendar"/,
  },
  {
    name: 'an access naming an undefined operation',
    code: 'RAM_DANGLING_OPERATION',
    file: 'content/agents/flights.md',
    path: 'resourceAccesses[2].operation',
    line: 31,
    message: /"payments-charge"/,
  },
  {
    name: 'a *_UNSPECIFIED enum in a snake_case ramFile',
    code: 'RAM_UNSPECIFIED_ENUM',
    file: 'content/agents/flights.ram.json',
    path: 'resources[0].interactionProtocol',
    line: 5,
    message: /INTERACTION_PROTOCOL_UNSPECIFIED/,
  },
  {
    name: 'an operation naming an undefined resource',
    code: 'RAM_DANGLING_RESOURCE',
    file: 'content/agents/flights.ram.json',
    path: 'operations[1].resource',
    line: 19,
    message: /"seat-maps"/,
  },
  {
    name: 'an empty required field',
    code: 'SCHEMA_EMPTY',
    file: 'content/agents/hotels.md',
    path: 'description',
    line: 3,
  },
  {
    name: 'a Markdown agent without front matter',
    code: 'FRONT_MATTER_MISSING',
    file: 'content/agents/notes.md',
    path: undefined,
    line: 1,
  },
  {
    name: 'invalid YAML in front matter (line counted in the .md file): the line of the open [',
    code: 'YAML_INVALID',
    file: 'content/agents/trains.md',
    path: undefined,
    line: 9,
    message: /end with a \]/,
  },
  {
    name: 'a siteUrl on a sub-path',
    code: 'SITE_URL_NOT_ROOT',
    file: 'content/publisher.yaml',
    path: 'siteUrl',
    line: 3,
    message: /"https:\/\/example\.github\.io\/"/,
  },
  {
    name: 'a REST operation without httpMethod',
    code: 'RAM_REST_WITHOUT_HTTP_METHOD',
    file: 'content/resources/calendar.yaml',
    path: 'operations[1].apiOperationSpec.httpMethod',
    line: 13,
    message: /"calendar-insert"/,
  },
  // The typo also leaves the real field missing: both are reported, each at its place.
  {
    name: 'the required field that the typo left out',
    code: 'SCHEMA_REQUIRED',
    file: 'content/resources/maps.yaml',
    path: 'displayName',
    line: 1,
  },
  {
    name: 'an unknown key with a suggestion',
    code: 'SCHEMA_UNKNOWN_KEY',
    file: 'content/resources/maps.yaml',
    path: 'displayNme',
    line: 4,
    message: /did you mean "displayName"/,
  },
  {
    name: 'a key given twice in a resource file (its operation used by flights.md is not dangling)',
    code: 'YAML_INVALID',
    file: 'content/resources/timetables.yaml',
    path: undefined,
    line: 7,
    message: /the key "displayName" is given twice/,
  },
  {
    name: 'a wrong enum value with a suggestion',
    code: 'SCHEMA_INVALID_ENUM',
    file: 'content/resources/weather.yaml',
    path: 'owner',
    line: 3,
    message: /did you mean "CONSUMER"/,
  },
  {
    name: 'one resource defined differently in two files',
    code: 'RAM_CONFLICTING_DEFINITION',
    file: 'content/resources/work-calendar.yaml',
    path: '(document)',
    line: 2,
    message: /content\/resources\/calendar\.yaml:1/,
  },
];
