import { endpointById, type LooseBody, type Profile } from '../../contract/index.ts';
import type { RouteId } from '../../contract/routes.ts';
import type { CallOptions } from '../call.ts';
import type { CheckContext } from '../check.ts';
import type { Reply } from '../http.ts';

// A call to an endpoint of the table named by a value rather than a literal id: a check that
// walks the table (every keyed endpoint, asked without a key) holds its ids as strings, so
// ctx.call's per-endpoint types cannot follow them; and public.rateSeries is a row of the
// table that lendcheck/types does not name (contract/routes.ts). The call is ctx.call all the
// same: method and path from the table, the id on the exchange, the answer judged on arrival.
// The id is still one of the table's routes (RouteId), so a misspelt one fails at compile time.

export interface CallByIdInput extends CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: LooseBody;
}

export function callById(ctx: CheckContext, id: RouteId, input: CallByIdInput = {}): Promise<Reply> {
  return (ctx.call as unknown as (id: RouteId, input: CallByIdInput) => Promise<Reply>)(id, input);
}

/** An endpoint as a failure names it: its method and path template (`GET /positions/{positionId}`), from the table. */
export function templateOf(profile: Profile, id: RouteId): string {
  const e = endpointById(profile, id);
  if (!e) throw new Error(`${id} is no endpoint of the table under this profile`);
  return `${e.method} ${e.path}`;
}
