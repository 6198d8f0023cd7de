import { resolveCall, type CallInput, type PartnerEndpointId } from '../contract/index.ts';
import type { Profile } from '../contract/index.ts';
import type { RequestSpec } from './http.ts';

// An endpoint called by its name (contract/call.ts) as the request the HTTP client sends: the
// method and path from the contract's table, the public base and no key for a public
// endpoint, and the endpoint's id on the exchange, so its answer is judged as that endpoint's
// where it arrives (answer-rules.ts). Conformance checks (ctx.call), detection (Probe.call)
// and chaos all send through this.

/** What a call may set beside the endpoint's own input: the key, headers, timeouts, pacing. */
export type CallOptions = Omit<RequestSpec, 'method' | 'path' | 'query' | 'body' | 'endpoint' | 'base'>;

export type Call<Id extends PartnerEndpointId> = CallInput<Id> & CallOptions;

export function callSpec<Id extends PartnerEndpointId>(profile: Profile, id: Id, input: Call<Id>): RequestSpec {
  const { params, query, body, method, ...rest } = input as Call<Id> & { params?: Record<string, string> };
  const r = resolveCall(profile, id, params ?? {});
  const pub = r.access === 'public';
  return {
    ...(pub ? { key: null, base: 'public' as const } : {}),
    ...rest,
    method: method ?? r.method,
    path: r.path,
    ...(query ? { query } : {}),
    ...(body !== undefined ? { body } : {}),
    endpoint: id,
  };
}
