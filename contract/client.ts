import {
  PARTNER_ENDPOINTS,
  type PartnerEndpointId,
  type PartnerEndpoints,
  type RequestOf,
  type ResponseOf,
} from './endpoint-bodies.ts';
import { fillPath } from './fill-path.ts';

// `lendcheck/client`: a small typed client of the interface, for a partner's tests (and
// scripts) against the msw sandbox, startSandbox, the container or a real service. Each method
// is one endpoint of endpoint-bodies.ts with its body and answer typed; nothing is validated
// here (the sandbox checks requests and, under test, its own answers). It calls the `fetch`
// it is given, or the global fetch looked up at each call, so msw's interception (which
// patches the global when the server listens) is honoured: with the handlers not listening,
// a call fails, as the partner's own code would.

export interface ClientOptions {
  /** Ends in /v1 (msw sandbox: sandbox.baseUrl; startSandbox: started.url). */
  baseUrl: string;
  /** The API key sent as `Authorization: Bearer …`; none for the public endpoints. */
  key?: string;
  /** Default: the global fetch at the time of each call. */
  fetch?: (input: Request) => Promise<Response>;
  /** The get-rates path, which the spec does not show (the profile's ratesPath; default: the table's, as in the default profile). */
  ratesPath?: string;
}

/** A non-2xx answer: the status, and the spec's error object when the body is one. */
export class LendcheckApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    const e = (body as { error?: { code?: string; message?: string } } | null)?.error;
    super(`${method} ${path}: ${status}${e ? ` ${e.code ?? ''}: ${e.message ?? ''}` : ''}`);
    this.name = 'LendcheckApiError';
  }
}

type Params = Record<string, string>;
type Query = Record<string, string | number | boolean | undefined>;
export interface CallOptions<Id extends PartnerEndpointId> {
  params?: Params;
  query?: PartnerEndpoints[Id] extends { query: infer Q } ? Q : never;
  body?: RequestOf<Id>;
}

export interface PartnerClient {
  lend(body: RequestOf<'lend.create'>): Promise<ResponseOf<'lend.create'>>;
  borrow(body: RequestOf<'borrow.create'>): Promise<ResponseOf<'borrow.create'>>;
  position(positionId: string): Promise<ResponseOf<'position.get'>>;
  positions(userId: string, query?: PartnerEndpoints['positions.list']['query']): Promise<ResponseOf<'positions.list'>>;
  repay(positionId: string, body?: RequestOf<'position.repay'>): Promise<ResponseOf<'position.repay'>>;
  cancel(positionId: string): Promise<ResponseOf<'position.cancel'>>;
  patchPosition(positionId: string, body: RequestOf<'position.patch'>): Promise<ResponseOf<'position.patch'>>;
  withdraw(userId: string, body: RequestOf<'user.withdraw'>): Promise<ResponseOf<'user.withdraw'>>;
  rates(): Promise<ResponseOf<'rates.get'>>;
  orderbook(asset: string, query?: PartnerEndpoints['orderbook.get']['query']): Promise<ResponseOf<'orderbook.get'>>;
  subscribe(body: RequestOf<'webhooks.create'>): Promise<ResponseOf<'webhooks.create'>>;
  webhooks(): Promise<ResponseOf<'webhooks.list'>>;
  unsubscribe(webhookId: string): Promise<ResponseOf<'webhooks.delete'>>;
  markets(): Promise<ResponseOf<'public.markets'>>;
  /** Sandbox control (not the spec's): test funds for a user. */
  fund(body: RequestOf<'sandbox.fund'>): Promise<ResponseOf<'sandbox.fund'>>;
  /** Any endpoint by id; throws LendcheckApiError on a non-2xx answer. */
  call<Id extends PartnerEndpointId>(id: Id, opts?: CallOptions<Id>): Promise<ResponseOf<Id>>;
}

/**
 * The method and path under /v1 of endpoint `id`, its `{name}` parameters filled (encoded), from
 * the same table the client calls: for a partner's own client that names endpoints as this one
 * does (examples/partner-app) rather than writing their paths out.
 */
export function endpointRoute<Id extends PartnerEndpointId>(id: Id, params: Params = {}, ratesPath?: string): { method: PartnerEndpoints[Id]['method']; path: string } {
  const e = PARTNER_ENDPOINTS[id];
  const template = id === 'rates.get' && ratesPath ? ratesPath : e.path;
  return { method: e.method, path: fillPath(template, params, id) };
}

export function createClient(opts: ClientOptions): PartnerClient {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const send = opts.fetch ?? ((req: Request) => globalThis.fetch(req));
  async function call<Id extends PartnerEndpointId>(id: Id, o: CallOptions<Id> = {}): Promise<ResponseOf<Id>> {
    const { method, path } = endpointRoute(id, o.params, opts.ratesPath);
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries((o.query ?? {}) as Query)) if (v !== undefined) qs.set(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    const url = `${base}${path}${qs.size ? `?${qs}` : ''}`;
    const res = await send(new Request(url, { method, headers, ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}) }));
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: kept as text for the error.
    }
    if (!res.ok) throw new LendcheckApiError(method, path, res.status, body);
    return body as ResponseOf<Id>;
  }
  return {
    lend: (body) => call('lend.create', { body }),
    borrow: (body) => call('borrow.create', { body }),
    position: (positionId) => call('position.get', { params: { positionId } }),
    positions: (userId, query) => call('positions.list', { params: { userId }, ...(query ? { query } : {}) }),
    // The spec's repay takes an optional amount; an empty object repays in full.
    repay: (positionId, body) => call('position.repay', { params: { positionId }, body: body ?? {} }),
    cancel: (positionId) => call('position.cancel', { params: { positionId } }),
    patchPosition: (positionId, body) => call('position.patch', { params: { positionId }, body }),
    withdraw: (userId, body) => call('user.withdraw', { params: { userId }, body }),
    rates: () => call('rates.get'),
    orderbook: (asset, query) => call('orderbook.get', { params: { asset }, ...(query ? { query } : {}) }),
    subscribe: (body) => call('webhooks.create', { body }),
    webhooks: () => call('webhooks.list'),
    unsubscribe: (webhookId) => call('webhooks.delete', { params: { webhookId } }),
    markets: () => call('public.markets'),
    fund: (body) => call('sandbox.fund', { body }),
    call,
  };
}
