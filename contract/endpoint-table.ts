import type { Endpoint } from './endpoint-type.ts';
import { endpoints } from './endpoints.ts';
import type { Profile } from './profile.ts';
import { compileRouter, type Router } from './router.ts';
import { API_VERSION_PREFIX } from './constants.ts';

// The endpoint table of a profile, built once per profile object and shared by every caller
// (the sandbox's routes, each ctx.call, each proxy's route-of): building it compiles zod
// schemas, too dear to repeat per request. A profile is a value: nothing changes one after it
// is loaded.

interface Built {
  all: readonly Endpoint[];
  byId: ReadonlyMap<string, Endpoint>;
  router?: Router<Endpoint[]>;
}

const built = new WeakMap<Profile, Built>();

function of(profile: Profile): Built {
  let b = built.get(profile);
  if (!b) {
    const all = Object.freeze(endpoints(profile));
    b = { all, byId: new Map(all.map((e) => [e.id, e])) };
    built.set(profile, b);
  }
  return b;
}

/** contract endpoints(profile), shared by every caller on this profile object. */
export function endpointTable(profile: Profile): readonly Endpoint[] {
  return of(profile).all;
}

/** The endpoint `id` under this profile; undefined where the profile has none (ratesPath null, no webhook list). */
export function endpointById(profile: Profile, id: string): Endpoint | undefined {
  return of(profile).byId.get(id);
}

/**
 * The endpoint a request reached, for a door in front of a target (a proxy, a mutant): its
 * method and path under /v1 through the one router (router.ts), keyed or not where two share a
 * path (the authenticated and the public order book). Callers that make requests never ask
 * this: they name the endpoint when they call it (ctx.call).
 */
export function routeOf(profile: Profile, method: string, path: string, keyed: boolean): Endpoint | undefined {
  const b = of(profile);
  b.router ??= routerOf(b.all);
  const hit = b.router.match(method === 'HEAD' ? 'GET' : method, path.split('?')[0]!);
  if (!hit) return undefined;
  return hit.value.length > 1 ? (hit.value.find((e) => (e.access === 'key') === keyed) ?? hit.value[0]) : hit.value[0];
}

function routerOf(all: readonly Endpoint[]): Router<Endpoint[]> {
  // One entry per method and path shape: the two order books (keyed and public) share one.
  const shapes = new Map<string, { method: string; path: string; value: Endpoint[] }>();
  for (const e of all) {
    const k = `${e.method} ${e.path.replace(/\{\w+\}/g, '{}')}`;
    const entry = shapes.get(k);
    if (entry) entry.value.push(e);
    else shapes.set(k, { method: e.method, path: e.path, value: [e] });
  }
  return compileRouter([...shapes.values()]);
}

/**
 * The endpoint a Fetch Request reached (a proxy's, a mutant's, a test wrapper's): its path
 * under the base's `/v1`, keyed by whether it carries an Authorization header. One router,
 * no pattern per endpoint.
 */
export function routeOfRequest(profile: Profile, req: Pick<Request, 'method' | 'url' | 'headers'>): Endpoint | undefined {
  const path = new URL(req.url).pathname;
  const at = path.indexOf(API_VERSION_PREFIX);
  if (at === -1) return undefined;
  return routeOf(profile, req.method, path.slice(at + API_VERSION_PREFIX.length) || '/', req.headers.has('authorization'));
}
