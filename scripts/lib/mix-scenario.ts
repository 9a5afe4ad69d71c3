/**
 * The headline scenario of `npm run load:registry` (`mix`): the traffic a public registry sees, mostly
 * questions nobody asked before. Of every 20 requests: 14 POST /search with a never-seen text, 3 with a
 * text asked before (the answer cache's share), 2 never-seen texts with a `type` filter, and 1 GET
 * /agents page (a crawler listing the index, `pageSize` 50, a different `filter` each time). The texts
 * are made from the synthetic publisher's words, numbers and everyday domain words, so they match
 * some entries, many entries or none, as real questions do.
 */
import type autocannon from 'autocannon';

const DOMAIN = [
  'flight',
  'hotel',
  'bus',
  'train',
  'calendar',
  'invoice',
  'weather',
  'map',
  'recipe',
  'doctor',
  'insurance',
  'music',
  'photo',
  'translate',
  'ticket',
  'delivery',
];

/**
 * The requests of the `mix` scenario against the API at `api` (its base URL), for an index of `agents`.
 * `first`: the number of the first request (default 0); a later run against the same server starts past
 * the requests of the runs before it, so that its never-seen texts are never-seen again.
 */
export function mixRequests(
  api: string,
  repeated: readonly string[],
  agents: number,
  first = 0,
): autocannon.Request[] {
  const base = new URL(api).pathname;
  const json = { 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate, br' };
  let k = first;
  const fresh = () => {
    // A whole number (no bit operator: past 2^31 `>>` wraps to a negative index, and the text read
    // "undefined" once a run's numbers passed 271,000).
    const n = k * 7919;
    const forms = [
      `when is my next ${DOMAIN[n % DOMAIN.length]} number ${n % agents}`,
      `plan my week about ${DOMAIN[Math.floor(n / 8) % DOMAIN.length]} and topic ${n % 97} please ${k}`,
      `find a ${DOMAIN[n % DOMAIN.length]} agent for ${DOMAIN[Math.floor(n / 32) % DOMAIN.length]} ${k}`,
      `summarise everything for agent ${n % agents} ${k.toString(36)}`,
    ];
    return forms[k % forms.length]!;
  };
  return [
    {
      method: 'POST',
      path: `${base}/search`,
      headers: json,
      setupRequest: (req: autocannon.Request) => {
        const slot = k % 20;
        k++;
        if (slot === 19) {
          const filter = encodeURIComponent(`type = 'application/a2a-agent-card+json'`);
          // Headers of its own: autocannon writes each POST's Content-Length into the headers object
          // it is given, and a GET carrying that length would leave the server waiting for a body.
          return {
            ...req,
            method: 'GET',
            path: `${base}/agents?pageSize=50&filter=${filter}&orderBy=${k % 2 === 0 ? 'identifier' : 'updatedAt%20DESC'}`,
            headers: { 'accept-encoding': json['accept-encoding'] },
            body: undefined,
          } as autocannon.Request;
        }
        if (slot >= 14 && slot < 17)
          return {
            ...req,
            headers: { ...json },
            body: JSON.stringify({ query: { text: repeated[k % repeated.length] } }),
          };
        const query =
          slot >= 17
            ? { text: fresh(), filter: { type: ['application/a2a-agent-card+json'] } }
            : { text: fresh() };
        return { ...req, headers: { ...json }, body: JSON.stringify({ query }) };
      },
    },
  ];
}
