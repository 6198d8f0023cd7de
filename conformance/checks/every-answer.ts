import { citing, endpoints, judgeSuccess, shapeRequirementOf, specShowsBody, type Endpoint, type Finding, type Profile } from '../../contract/index.ts';
import { fail, pass, type Check } from '../check.ts';
import type { Exchange } from '../../kernel/results.ts';

// Each answer judged once, where it arrived, as Schemathesis does: every success answer the run
// recorded, whichever check sent it, against what contract/assertable.ts says may be required
// of its endpoint's body. A check then judges only its own rule; a broken body the check was
// not looking at still shows, here, naming the exchange.

const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/** The endpoint an answered request was made to: its method and path template, keyed or not on the shared book path. */
export function endpointOf(all: Endpoint[], x: Pick<Exchange, 'method' | 'url' | 'requestHeaders'>): Endpoint | undefined {
  const path = new URL(x.url).pathname;
  const keyed = Object.keys(x.requestHeaders ?? {}).some((k) => k.toLowerCase() === 'authorization');
  const hits = all.filter((e) => e.access !== 'sandbox' && e.method === x.method && new RegExp(`${escape(e.path).replace(/\{\w+\}/g, '[^/]+')}$`).test(path));
  // The longest template is the most specific (…/positions/{id}/cancel over …/positions/{id}, /analytics/rates over /rates).
  const size = (e: Endpoint) => e.path.replace(/\{\w+\}/g, '{}').length;
  const longest = Math.max(...hits.map(size));
  const best = hits.filter((e) => size(e) === longest);
  // The authenticated and the public book share a path: a key picks the first.
  return best.length > 1 ? best.find((e) => (e.access === 'key') === keyed) : best[0];
}

/** lendcheck's own log masks a registration's secret (reports/redact.ts): not the target's doing. */
function unmask(v: unknown): unknown {
  if (v && typeof v === 'object' && !Array.isArray(v) && (v as Record<string, unknown>).secret === '***') {
    const { secret: _masked, ...rest } = v as Record<string, unknown>;
    return rest;
  }
  return v;
}

export function everyAnswerCheck(profile: Profile): Check {
  const all = endpoints(profile);
  return {
    id: 'endpoint.every-success-body',
    title: 'every success answer recorded during the run carries what the spec and the profile say of its body',
    // What judgeSuccess may fail a success answer through (each failure names which): JSON, the
    // public wrapper, and the shape of each body the spec shows (issue 47: every failing rule cites its sentence).
    requirements: [...new Set(['EP-json', 'PUB-envelope', ...all.filter((e) => e.access !== 'sandbox' && specShowsBody(e)).map(shapeRequirementOf).filter((q): q is string => !!q)])],
    phase: 'final',
    judgesRun: true,
    async run(ctx) {
      let judged = 0;
      let clipped = 0;
      const advised = new Map<string, { a: Finding; x: Exchange; more: number }>();
      for (const x of ctx.http.log) {
        if (x.status === null || x.status < 200 || x.status > 299) continue;
        const e = endpointOf(all, x);
        if (!e) continue;
        const text = x.responseBody ?? '';
        // The log keeps the first 4 KiB of a body: a clipped one cannot be parsed, and is left (counted below).
        if (/…\(\d+ chars\)$/.test(text)) {
          clipped++;
          continue;
        }
        let json: unknown;
        try {
          json = text.length ? unmask(JSON.parse(text)) : undefined;
        } catch {
          json = undefined;
        }
        const j = judgeSuccess(ctx.profile, e, { status: x.status, json, text, contentType: x.responseHeaders['content-type'] ?? '' });
        const broken = j.failures[0];
        if (broken) fail(`every success answer carries what the spec and the profile say of its body (${x.method} ${new URL(x.url).pathname} → ${x.status}, ${e.id})`, broken.expected, `${broken.received}${citing(broken)}`, x);
        for (const a of j.advisories) {
          // One advice per endpoint and belief, however many answers show it: the first is its evidence.
          const k = `${e.id}\u0000${a.expected}`;
          const seen = advised.get(k);
          if (seen) seen.more++;
          else advised.set(k, { a, x, more: 0 });
        }
        judged++;
      }
      for (const { a, x, more } of advised.values()) ctx.advise({ ...a, received: `${a.received}${more ? ` (and in ${more} more answers)` : ''}` }, x);
      ctx.note(`${judged} success answers judged${clipped ? `; ${clipped} longer than the log keeps (4 KiB) left unjudged` : ''}`);
      return pass();
    },
  };
}
