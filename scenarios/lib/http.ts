// One place that builds requests, so every request carries an `endpoint` tag (the
// contract's endpoint id) and a templated `name`: per-endpoint thresholds select on the
// tag, and the name keeps URLs with ids from exploding k6's metric cardinality.
import http from 'k6/http';
import type { RefinedParams, RefinedResponse, ResponseType } from 'k6/http';
import type { LoadConfig } from './config.ts';

export type Res = RefinedResponse<ResponseType | undefined>;

export interface Call {
  endpoint: string;
  /** Path template for the `name` tag, e.g. /positions/{positionId}. */
  name: string;
  path: string;
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Public endpoints go without the key. */
  auth?: boolean;
  /** A key of the pool instead of API_KEY. */
  key?: string;
  tags?: Record<string, string>;
}

// 429 is an expected answer in every scenario: the limiter saying no is data, not an error.
export function expect429AsNormal(): void {
  http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 429));
}

function paramsOf(cfg: LoadConfig, c: Call): { body: string | null; params: RefinedParams<ResponseType> } {
  const headers: Record<string, string> = {};
  const key = c.key ?? cfg.apiKey;
  if (c.auth !== false && key) headers.Authorization = `Bearer ${key}`;
  let body: string | null = null;
  if (c.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(c.body);
  }
  return { body, params: { headers, tags: { endpoint: c.endpoint, name: c.name, ...c.tags }, timeout: '10s' } };
}

export function call(cfg: LoadConfig, c: Call): Res {
  const { body, params } = paramsOf(cfg, c);
  return http.request(c.method ?? 'GET', `${cfg.baseUrl}${c.path}`, body, params);
}

/** `n` copies of one request in parallel (up to the batch options), answers in order; `alsoExpected` statuses are no failure. */
export function callMany(cfg: LoadConfig, c: Call, n: number, alsoExpected: number[] = []): Res[] {
  const { body, params } = paramsOf(cfg, c);
  if (alsoExpected.length) params.responseCallback = http.expectedStatuses({ min: 200, max: 299 }, 429, ...alsoExpected);
  const url = `${cfg.baseUrl}${c.path}`;
  const reqs = Array.from({ length: n }, () => ({ method: c.method ?? 'GET', url, body, params }));
  return http.batch(reqs) as Res[];
}

export function jsonOf(res: Res): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(String(res.body ?? ''));
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The header value, looked up without regard to case (k6 canonicalises names). */
export function header(res: Res, name: string): string | undefined {
  const want = name.toLowerCase();
  for (const k of Object.keys(res.headers)) if (k.toLowerCase() === want) return res.headers[k];
  return undefined;
}

/** The payload of a public response, unwrapping {data, timestamp} when present. */
export function payloadOf(res: Res): unknown {
  const j = jsonOf(res);
  return j && 'data' in j && 'timestamp' in j ? j.data : j;
}
