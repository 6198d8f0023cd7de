import { Agent } from 'undici';
import type * as results from '../kernel/results.ts';
import { createRedactor, type Redactor } from '../reports/redact.ts';
import { PUBLIC_BUCKET, type RequestBudget } from './budget/budget.ts';

type Exchange = results.Exchange;

// One pooled undici Agent for the whole run (it keeps a connection pool per origin, so
// the API and a separate public base URL share it). Every exchange is recorded, redacted
// before it is stored, so a failure can show the request that broke the rule.

export interface RequestSpec {
  method: string;
  /** Path under the base URL (which ends in /v1), as contract/call.ts resolves an endpoint's; may carry a query string. */
  path: string;
  /** Query parameters appended to the path. */
  query?: Record<string, string | number | undefined>;
  /** JSON body (serialised here) — or `raw` for bytes sent as they are. */
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  /** Bearer key; null sends no Authorization header. */
  key?: string | null;
  /** Which base URL: the API (default) or the public one. */
  base?: 'api' | 'public';
  timeoutMs?: number;
  /** Whether a 429 is waited out (Retry-After, at most 3 s) and retried once; default true. */
  retry429?: boolean;
  /** Whether the request waits for room in the run's budget (default true); false only for bursts that exhaust a limit on purpose. */
  paced?: boolean;
  /** The contract endpoint it calls (set by callSpec, conformance/call.ts): recorded on the exchange, and what its answer is judged as. */
  endpoint?: string;
}

export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed body, or undefined when the body is not JSON. */
  json: unknown;
  exchange: Exchange;
  /** performance.now() when the request was sent and when its answer was read: whether requests overlapped (a storm) or came one after another. */
  sentAt?: number;
  receivedAt?: number;
}

export class TransportError extends Error {
  constructor(message: string, readonly exchange: Exchange) {
    super(message);
  }
}

export interface HttpClientOptions {
  baseUrl: string;
  publicBaseUrl?: string;
  /** Values to scrub from everything recorded, beyond the key patterns. */
  secrets?: string[];
  timeoutMs?: number;
  connections?: number;
  /** Environment variable of each key (value → name): an exchange records which one it carried, never the key. */
  keyVars?: Record<string, string>;
  /** The run's request budget: every request waits for room in its bucket (conformance/budget). */
  budget?: RequestBudget;
}

const MAX_RECORDED_BODY = 4096;

export class HttpClient {
  readonly agent: Agent;
  readonly baseUrl: URL;
  readonly publicBaseUrl: URL;
  readonly log: Exchange[] = [];
  private readonly secrets: string[];
  private redactor: Redactor;
  private readonly timeoutMs: number;
  private listeners: Array<(r: Reply) => void> = [];
  private readonly keyVars: Map<string, string>;
  readonly budget?: RequestBudget;

  constructor(opts: HttpClientOptions) {
    this.baseUrl = new URL(opts.baseUrl.replace(/\/+$/, ''));
    this.publicBaseUrl = new URL((opts.publicBaseUrl ?? opts.baseUrl).replace(/\/+$/, ''));
    this.secrets = (opts.secrets ?? []).filter(Boolean);
    this.redactor = createRedactor(this.secrets);
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.keyVars = new Map(Object.entries(opts.keyVars ?? {}).filter(([k]) => k));
    this.agent = new Agent({ connections: opts.connections ?? 16, keepAliveTimeout: 4_000 });
    this.budget = opts.budget;
  }

  /** The bucket a request draws on: its key's when the key is one of the run's, else the public one. */
  bucketOf(key: string | null | undefined): string {
    return key && this.keyVars.has(key) ? key : PUBLIC_BUCKET;
  }

  /** Idle connections to the API's origin (undici's pool stats), so a storm opens only the ones it lacks. */
  idleConnections(): number {
    const stats = (this.agent as unknown as { stats?: Record<string, { free?: number }> }).stats;
    return stats?.[this.baseUrl.origin]?.free ?? 0;
  }

  addSecret(s: string): void {
    if (!s) return;
    this.secrets.push(s);
    this.redactor = createRedactor(this.secrets);
  }

  onReply(fn: (r: Reply) => void): () => void {
    this.listeners.push(fn);
    return () => (this.listeners = this.listeners.filter((l) => l !== fn));
  }

  /** Full path (base path + path + query) of a request, as sent. */
  pathOf(spec: RequestSpec): { origin: string; path: string } {
    const base = spec.base === 'public' ? this.publicBaseUrl : this.baseUrl;
    let path = base.pathname.replace(/\/+$/, '') + spec.path;
    const q = Object.entries(spec.query ?? {}).filter(([, v]) => v !== undefined);
    if (q.length) path += (path.includes('?') ? '&' : '?') + new URLSearchParams(q.map(([k, v]) => [k, String(v)])).toString();
    return { origin: base.origin, path };
  }

  /** Sends once; a 429 is waited out and retried once unless `retry429` is false. */
  async request(spec: RequestSpec): Promise<Reply> {
    const r = await this.send(spec);
    if (r.status !== 429 || spec.retry429 === false) return r;
    // With a budget the 429 has emptied the bucket's belief: the retry waits in admit() as long as it must.
    if (this.budget && spec.paced !== false) return this.send(spec);
    const after = Number(r.headers['retry-after']);
    await new Promise((res) => setTimeout(res, Math.min(3_000, Number.isFinite(after) && after > 0 ? after * 1000 : 1000)));
    return this.send(spec);
  }

  async send(spec: RequestSpec): Promise<Reply> {
    const { origin, path } = this.pathOf(spec);
    const headers: Record<string, string> = { accept: 'application/json', ...spec.headers };
    let body: string | undefined = spec.raw;
    if (spec.body !== undefined && body === undefined) {
      body = JSON.stringify(spec.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
    if (spec.key) headers.authorization = `Bearer ${spec.key}`;
    const bucket = this.bucketOf(spec.key);
    const paced = spec.paced !== false;
    // An unknown key is refused before any bucket of a key is touched: it spends the public bucket, but its headers may speak of another.
    const learn = !spec.key || bucket !== PUBLIC_BUCKET;
    const what = `${spec.method} ${spec.path.split('?')[0]}`;
    const order = await this.budget?.admit(bucket, paced, what);
    const t0 = performance.now();
    const base: Omit<Exchange, 'status' | 'durationMs'> = {
      method: spec.method,
      url: this.redactor.text(origin + path),
      requestHeaders: this.redactor.value(headers),
      requestBody: body === undefined ? undefined : this.clip(this.redactor.text(body)),
      responseHeaders: {},
      ...credentialOf(spec.key, headers, this.keyVars),
      ...(spec.endpoint ? { endpoint: spec.endpoint } : {}),
    };
    const timeout = spec.timeoutMs ?? this.timeoutMs;
    try {
      const res = await this.agent.request({
        origin,
        path,
        method: spec.method as 'GET',
        headers,
        body,
        headersTimeout: timeout,
        bodyTimeout: timeout,
        signal: AbortSignal.timeout(timeout),
      });
      const text = await res.body.text();
      const resHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) resHeaders[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      let json: unknown;
      try {
        json = text.length ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      const receivedAt = performance.now();
      const exchange: Exchange = {
        ...base,
        status: res.statusCode,
        responseHeaders: this.redactor.value(resHeaders),
        responseBody: this.clip(this.redactor.text(text)),
        durationMs: round(receivedAt - t0),
      };
      this.log.push(exchange);
      this.budget?.settle(bucket, { status: res.statusCode, headers: resHeaders }, paced, learn, order, what);
      const reply: Reply = { status: res.statusCode, headers: resHeaders, text, json, exchange, sentAt: t0, receivedAt };
      for (const l of this.listeners) l(reply);
      return reply;
    } catch (e) {
      this.budget?.settle(bucket, undefined, paced, learn, order, what);
      const exchange: Exchange = { ...base, status: null, durationMs: round(performance.now() - t0), error: (e as Error).message };
      this.log.push(exchange);
      throw new TransportError(`${spec.method} ${path}: ${(e as Error).name === 'TimeoutError' ? `no answer within ${timeout} ms` : (e as Error).message}`, exchange);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private clip(s: string): string {
    return s.length > MAX_RECORDED_BODY ? `${s.slice(0, MAX_RECORDED_BODY)}…(${s.length} chars)` : s;
  }
}

/**
 * The variable of the key a request carried: as the Bearer key, or as the whole credential of
 * an Authorization header a check wrote itself (`Basic <key>`: a wrong scheme with a real key).
 */
function credentialOf(key: string | null | undefined, headers: Record<string, string>, vars: Map<string, string>): { credential?: string } {
  if (key && vars.has(key)) return { credential: vars.get(key) };
  const auth = Object.entries(headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  const m = auth ? /^(\S+) (\S+)$/.exec(auth) : null;
  return m && vars.has(m[2]) ? { credential: vars.get(m[2]) } : {};
}

const round = (n: number) => Math.round(n * 100) / 100;
