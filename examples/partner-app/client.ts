// The partner's own server code, as a partner would write it: a fetch-based client of the
// lending interface. It sends JSON with its Content-Type, and meets a 429 politely: it waits
// for X-RateLimit-Reset (or Retry-After) before trying again, through `sleep`, which a test may
// point at its test clock. It names each endpoint by its id, as lendcheck's own client does
// (lendcheck/client's endpointRoute gives the method and path), so no path is written out here.
import { endpointRoute } from 'lendcheck/client';
import type { PartnerEndpointId } from 'lendcheck/types';

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  /** How the client waits after a 429 (real time by default). */
  sleep?: (ms: number) => Promise<void>;
  /** Retries after a 429 before giving up. */
  maxRetries?: number;
}

export class LendingClient {
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly o: ClientOptions) {
    this.sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    for (let attempt = 0; ; attempt++) {
      const r = await fetch(`${this.o.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.o.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (r.status === 429 && attempt < (this.o.maxRetries ?? 3)) {
        // Delta seconds is this sandbox's unit; Retry-After is the plainer word when present.
        const wait = Number(r.headers.get('retry-after') ?? r.headers.get('x-ratelimit-reset') ?? 1);
        await r.body?.cancel();
        await this.sleep(wait * 1000);
        continue;
      }
      const text = await r.text();
      return { status: r.status, body: (text ? JSON.parse(text) : undefined) as T };
    }
  }

  /** One endpoint by its id, its path parameters filled: `call('position.get', { positionId })`. */
  call<T>(id: PartnerEndpointId, params: Record<string, string> = {}, body?: unknown): Promise<{ status: number; body: T }> {
    const { method, path } = endpointRoute(id, params);
    return this.request<T>(method, path, body);
  }

  lend(userId: string, amount: string, rate: number) {
    return this.call<{ positionId: string; status: string }>('lend.create', {}, { userId, asset: 'USDC', amount, rate, maturity: '30d' });
  }

  borrow(userId: string, amount: string, rate: number) {
    return this.call<{ positionId: string }>('borrow.create', {}, { userId, collateral: { asset: 'ETH', amount: '10' }, borrowAsset: 'USDC', borrowAmount: amount, rate, maturity: '30d' });
  }

  position(id: string) {
    return this.call<{ positionId: string; status: string }>('position.get', { positionId: id });
  }

  withdraw(userId: string, amount: string) {
    return this.call<unknown>('user.withdraw', { userId }, { asset: 'USDC', amount, destination: '0x000000000000000000000000000000000000dEaD' });
  }

  subscribe(url: string, events: string[], secret: string) {
    return this.call<{ webhookId: string }>('webhooks.create', {}, { url, events, secret });
  }
}
