import type { PartnerEndpointId, PartnerEndpoints, RequestOf } from './endpoint-bodies.ts';
import type { Access, Method } from './endpoint-type.ts';
import { endpointById } from './endpoint-table.ts';
import { fillPath } from './fill-path.ts';
import type { Profile } from './profile.ts';

// An endpoint called by its name (issue 49): the caller says `position.get` and its path
// parameters, and the contract's table (endpoints.ts) gives the method and the path, with the
// profile's choices (the get-rates path) applied. Every exchange then carries the id it was
// made to, so its answer is judged as that endpoint's where it arrives, never guessed back
// from its URL.

type Names<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | Names<Rest> : never;

/** The `{name}` parameters of an endpoint's path, as an object: `position.get` → {positionId}. */
export type ParamsOf<Id extends PartnerEndpointId> = { [K in Names<PartnerEndpoints[Id]['path']>]: string };

/** A body a check builds on purpose beside the spec's (a missing field, a wrong type): still sent to this endpoint. */
export type LooseBody = Record<string, unknown> | unknown[] | string | number | boolean | null;

/** What a call names beside the endpoint: its path parameters (required where the path has any), query and body. */
export type CallInput<Id extends PartnerEndpointId> = ([Names<PartnerEndpoints[Id]['path']>] extends [never] ? { params?: Record<string, never> } : { params: ParamsOf<Id> }) & {
  query?: Record<string, string | number | undefined>;
  body?: RequestOf<Id> | LooseBody;
  /**
   * Another method on the endpoint's path: a probe of what the endpoint must refuse (a 405).
   * The exchange still names the endpoint whose path it used, with the method it was sent with.
   */
  method?: Method;
};

export interface ResolvedCall {
  endpoint: PartnerEndpointId;
  method: Method;
  /** The path under /v1, parameters filled and encoded. */
  path: string;
  access: Access;
}

/** Thrown where the profile has no such endpoint (an unknown rates path, no webhook list): a reason to skip, named. */
export class NoSuchEndpoint extends Error {
  constructor(readonly id: string) {
    super(
      id === 'rates.get'
        ? 'the get-rates path is not known (profile ratesPath is null: the spec does not show it, and detection did not find it)'
        : `the target has no ${id} under this profile (contract/endpoints.ts; the profile says it is not served)`,
    );
  }
}

/** The method and path of a call to `id`, its `{name}` parameters filled (encoded); a missing one throws. */
export function resolveCall<Id extends PartnerEndpointId>(profile: Profile, id: Id, params: Partial<Record<string, string>> = {}): ResolvedCall {
  const e = endpointById(profile, id);
  if (!e) throw new NoSuchEndpoint(id);
  const path = fillPath(e.path, params, id);
  return { endpoint: id, method: e.method, path, access: e.access };
}
