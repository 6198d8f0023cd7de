import { API_VERSION_PREFIX, endpointKey, endpoints, publicEnvelopeOf, type Endpoint } from '../../contract/index.ts';
import type { Answer } from '../answer/answer.ts';
import { keptNames, mutateBody, normalizeBody, shapePlan } from '../choices/mutate-shapes.ts';
import type { SandboxPlugin } from '../pipeline/plugin.ts';
import { andThen } from '../pipeline/stage.ts';

// `sandbox --choices mutate --seed N`: the shape mutator as a stage of the one dispatch, the
// innermost (sandbox/start.ts puts it last), so it changes only what the route answered: a
// success body of a contract endpoint as the seed's implementation would shape it
// (sandbox/choices/mutate-shapes.ts), an empty answer where the profile's status is 204/205,
// and the served OpenAPI document without the rates path where the seed hides it. Refusals,
// 429s and the limiter's headers are left as they are (their shapes are the spec's or the
// profile's). The seed's profile (choices/mutate-profile.ts) does the rest.

const NO_BODY = new Set([204, 205]);
const OPENAPI_DOC = `${API_VERSION_PREFIX}/openapi.json`;

const text = (b: string | Uint8Array): string => (typeof b === 'string' ? b : new TextDecoder().decode(b));

function withBody(a: Answer, body: unknown): Answer {
  const { 'content-length': _, ...headers } = a.headers;
  return { ...a, headers, body: JSON.stringify(body) };
}

export function shapeMutatorPlugin(seed: number): SandboxPlugin {
  const plan = shapePlan(seed);
  return {
    name: 'shape-mutator',
    stage(ctx) {
      const profile = ctx.profile;
      const byId = new Map<string, Endpoint>(endpoints(profile).map((e) => [e.id, e]));
      const kept = new Map([...byId.values()].map((e) => [e.id, keptNames(profile, endpointKey(e))]));

      const reshape = (e: Endpoint, a: Answer): Answer => {
        if (NO_BODY.has(a.status)) {
          const { 'content-length': _, 'content-type': __, ...headers } = a.headers;
          return { ...a, headers, body: null };
        }
        if (a.body === null || !a.headers['content-type']?.startsWith('application/json')) return a;
        let body = normalizeBody(plan, JSON.parse(text(a.body)));
        if (e.responseSource === 'profile') {
          const key = endpointKey(e);
          const wrapped = e.access === 'public' && publicEnvelopeOf(profile, e) === 'data' && body !== null && typeof body === 'object' && 'data' in body;
          body = wrapped ? { ...(body as object), data: mutateBody(plan, key, (body as { data: unknown }).data, kept.get(e.id)!) } : mutateBody(plan, key, body, kept.get(e.id)!);
        }
        return withBody(a, body);
      };

      const hideRates = (a: Answer): Answer => {
        if (a.status !== 200 || a.body === null || !profile.ratesPath) return a;
        const doc = JSON.parse(text(a.body)) as { paths?: Record<string, unknown> };
        if (doc.paths) delete doc.paths[profile.ratesPath];
        return withBody(a, doc);
      };

      return (req, next) => {
        if (plan.hideRatesPath && req.method === 'GET' && req.path === OPENAPI_DOC) return andThen(next(), hideRates);
        const e = req.endpoint === undefined ? undefined : byId.get(req.endpoint);
        if (!e || e.access === 'sandbox') return next();
        return andThen(next(), (a) => (a.status >= 200 && a.status < 300 ? reshape(e, a) : a));
      };
    },
  };
}
