import { PARTNER_ENDPOINTS, type PartnerEndpointId } from './endpoint-bodies.ts';

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
 * The path of endpoint `id` from the zod-free run-time table (PARTNER_ENDPOINTS), for light
 * callers that have no profile: the CLI's preflight and probes, which must not load the
 * schemas (cli/startup.test.ts). The get-rates path is the profile's: ask resolveCall for it.
 */
export function routePath(id: Exclude<PartnerEndpointId, 'rates.get'>, params: Partial<Record<string, string>> = {}): string {
  return fillPath(PARTNER_ENDPOINTS[id].path, params, id);
}
