import { ROUTES, type RouteId } from './routes.ts';

// A path template's `{name}` segments filled, each value encoded as one segment: the one way
// every caller turns an endpoint of the table into the path it sends (call.ts, endpointRequest).

/** A path template with its `{name}` segments filled from `params`, each encoded as one segment. */
export function fillPath(template: string, params: Partial<Record<string, string>>, what = template): string {
  return template
    .split('/')
    .map((seg) => {
      if (!(seg.startsWith('{') && seg.endsWith('}'))) return seg;
      const name = seg.slice(1, -1);
      const v = params[name];
      if (v === undefined) throw new Error(`${what}: no ${name} for ${template}`);
      return encodeURIComponent(v);
    })
    .join('/');
}

/**
 * The path of endpoint `id` from the schema-free route list (routes.ts), for light callers that
 * have no profile: the CLI's preflight and probes, which must not load the schemas
 * (cli/startup.test.ts), the k6 scenarios and the console's browser script. The get-rates path
 * is the profile's: ask resolveCall for it (or, with no profile, take it as a value).
 */
export function routePath(id: Exclude<RouteId, 'rates.get'>, params: Partial<Record<string, string>> = {}): string {
  return fillPath(ROUTES[id].path, params, id);
}
