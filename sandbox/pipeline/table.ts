import { API_VERSION_PREFIX, type Endpoint, type Profile } from '../../contract/index.ts';
import type { Answer } from '../answer/answer.ts';
import type { Route } from './dispatch.ts';
import { ApiError } from '../answer/errors.ts';
import type { KeyInfo, PluginRoute, RouteHandler } from './plugin.ts';
import type { SandboxRequest } from './request.ts';
import { profileEndpoints } from './profile-cache.ts';
import { compileRouter, type RouteEntry, type Router } from '../../contract/router.ts';
import { decodeParam } from './url.ts';
import { CONTROLS_PREFIX } from '../../contract/routes.ts';

// The sandbox's one route table, compiled once from the contract's endpoints(profile) and
// the routes the plugins declare. Each contract endpoint is served by the plugin that
// declares it, else by the core (its resolver), else by nobody; every one of them is in the
// table either way, so its path answers 405 with the right Allow, and a keyed one still
// refuses a missing key before its 404. Auth is decided here, by the endpoint's access, from
// the caller the caller stage found (auth/bearer.ts identify).

/** One endpoint's handler after auth: the request, its parameter values in path order and the partner. */
export type EndpointRun = (req: SandboxRequest, params: string[], partner: KeyInfo | undefined) => Answer | Promise<Answer>;

export interface TableOptions {
  profile: Profile;
  /** false: no /v1/sandbox/* routes at all, the core's or a plugin's. */
  controls: boolean;
  /** Endpoint ids the plugins serve (their `endpoints`), left to them even when they declare no route. */
  claimed: ReadonlySet<string>;
  pluginRoutes: PluginRoute[];
  /** The core's handler of an endpoint, when it has a resolver for it. */
  core(e: Endpoint): EndpointRun | undefined;
}

export function compileTable(o: TableOptions): Router<Route> {
  const { profile, controls } = o;
  const all = profileEndpoints(profile).filter((e) => controls || e.access !== 'sandbox');
  const byId = new Map(all.map((e) => [e.id, e]));
  const runs = new Map<string, EndpointRun>();
  const entries: RouteEntry<Route>[] = [];

  for (const r of o.pluginRoutes) {
    if ('endpoint' in r) {
      const e = byId.get(r.endpoint);
      // An endpoint the profile (or controls: false) leaves out is not served.
      if (e) runs.set(e.id, pluginRun(e.path, r.handle));
      continue;
    }
    const path = r.path;
    if (!controls && path.startsWith(CONTROLS_PREFIX)) continue;
    const handle = pluginRun(path, r.handle);
    entries.push({ method: r.method, path, value: { endpoint: () => undefined, run: (req, params) => handle(req, params, undefined) } });
  }
  for (const e of all) {
    if (runs.has(e.id) || o.claimed.has(e.id)) continue;
    const run = o.core(e);
    if (run) runs.set(e.id, run);
  }

  // The authenticated and public order books share a path: a request that presents a key
  // gets the authenticated variant (profile.orderbookPath 'shared-by-auth'). One entry per shape.
  // Grouped in one pass (a filter per endpoint was a tenth of a sandbox's set-up); a Map keeps
  // the first endpoint of each shape first, as the table lists them.
  const byShape = new Map<string, Endpoint[]>();
  for (const e of all) {
    const key = shape(e);
    const group = byShape.get(key);
    if (group) group.push(e);
    else byShape.set(key, [e]);
  }
  for (const pair of byShape.values()) {
    const e = pair[0]!;
    const keyed = pair.find((x) => x.access !== 'public');
    const pub = pair.find((x) => x.access === 'public');
    entries.push({ method: e.method, path: `${API_VERSION_PREFIX}${e.path}`, value: endpointRoute(o, runs, keyed, pub) });
  }
  return compileRouter(entries, decodeParam);
}

/** A keyed route reached without the caller stage: a fault of the sandbox, not the client's. */
const noCaller = () => new Error('sandbox: a keyed route ran before the caller stage');

/** Method and path with parameter names erased: /markets/{asset}/… and /markets/{id}/… are one route. */
const shape = (e: Pick<Endpoint, 'method' | 'path'>) => `${e.method} ${e.path.replace(/\{\w+\}/g, '{}')}`;

/** A plugin's handler as an endpoint run: parameter values named by the path's `{name}`s. */
function pluginRun(path: string, handle: RouteHandler): EndpointRun {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return (req, values, partner) => {
    const params: Record<string, string> = {};
    for (let i = 0; i < names.length; i++) params[names[i]!] = values[i]!;
    return handle({ req, params, ...(partner ? { partner } : {}) });
  };
}

/** A keyed endpoint authenticates first; a path shared by a keyed and a public endpoint takes
 *  the keyed one when a key comes. An endpoint nobody serves answers 404 (after auth). */
function endpointRoute(o: TableOptions, runs: Map<string, EndpointRun>, keyed: Endpoint | undefined, pub: Endpoint | undefined): Route {
  const unserved: EndpointRun = (req) => {
    const e = o.profile.errors.unknownRoute;
    throw new ApiError(e.code, `path: no route ${req.method} ${req.path}`, e.status);
  };
  const hk = keyed && (runs.get(keyed.id) ?? unserved);
  const hp = pub && (runs.get(pub.id) ?? unserved);
  return {
    endpoint: (hasKey) => (hasKey && keyed ? keyed.id : (pub ?? keyed)!.id),
    run(req, params) {
      const header = req.header('authorization');
      if (hk && (header !== undefined || !hp)) {
        if (!req.partner) throw req.authRefusal ?? noCaller();
        return hk(req, params, req.partner);
      }
      return hp!(req, params, undefined);
    },
  };
}
