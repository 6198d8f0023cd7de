import { routePath } from '../../contract/fill-path.ts';
import { INTERNAL_REQUEST_ENV, type SandboxContext } from '../pipeline/plugin.ts';

// What the console shows, read in one go through the sandbox's own API routes (in-process,
// so the views are the API's own and the partner's rate-limit bucket is left alone): public
// market data always; with a key, that partner's clock, users, positions and delivery log.
// A refused key answers as the API does (401), and the page locks itself again.

export class SnapshotError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`status ${status}`);
  }
}

type Json = Record<string, unknown>;
const unwrap = (j: Json): Json => (j && typeof j === 'object' && 'data' in j && 'timestamp' in j ? (j.data as Json) : j);

export async function consoleSnapshot(fetch: SandboxContext['fetch'], authorization: string | undefined, controls: boolean, ratesPath: string): Promise<Json> {
  const get = async (path: string, auth = true): Promise<Json> => {
    const headers: Record<string, string> = auth && authorization ? { authorization } : {};
    const r = await fetch(new Request(`http://sandbox.internal/v1${path}`, { headers }), INTERNAL_REQUEST_ENV);
    const text = await r.text();
    if (!r.ok) throw new SnapshotError(r.status, text);
    return JSON.parse(text) as Json;
  };
  const markets = ((unwrap(await get(routePath('public.markets'), false)).markets ?? []) as Array<{ id: string }>).map((m) => m.id);
  const books: Record<string, Json> = {};
  for (const id of markets) books[id] = unwrap(await get(routePath('public.orderbook', { id }), false));
  const out: Json = { markets, books, rates: unwrap(await get(routePath('public.rates'), false)).rates ?? [] };
  if (!authorization) return out;
  if (!controls) {
    // Without controls there is no user list or log to read: the key only proves itself, on the
    // one authenticated GET every profile has (its rates path).
    await get(ratesPath);
    return { ...out, partner: true };
  }
  const [clock, users, deliveries] = await Promise.all([get(routePath('sandbox.clock')), get(routePath('sandbox.users')), get(`${routePath('sandbox.deliveries')}?limit=100`)]);
  const positions: Json[] = [];
  for (const u of users.users as Array<{ userId: string }>) {
    const page = await get(`${routePath('positions.list', { userId: u.userId })}?limit=100`);
    for (const p of (page.positions ?? []) as Json[]) positions.push({ userId: u.userId, ...p });
  }
  return { ...out, partner: true, clock, users, positions, deliveries };
}
