// One place that builds requests, so every request names its endpoint by the contract's id
// and goes where the contract's route list (contract/routes.ts, schema-free, held equal to the
// endpoint table) says: method, path template and access. Each carries an `endpoint` tag (the
// id) and a templated `name` (the table's path template): per-endpoint thresholds select on
// the tag, and the name keeps URLs with ids from exploding k6's metric cardinality.
import http from 'k6/http';
import type { RefinedParams, RefinedResponse, ResponseType } from 'k6/http';
import { fillPath } from '../../contract/fill-path.ts';
import { ROUTES, type RouteId } from '../../contract/routes.ts';
import type { LoadConfig } from './config.ts';

export type Res = RefinedResponse<ResponseType | undefined>;

export interface Call {
  endpoint: RouteId;
  /** The `{name}` parameters of the endpoint's path: `position.get` → {positionId}. */
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  /**
   * The path in place of the table's, where the profile sets it: the get-rates path, which the
   * spec does not show (RATES_PATH), or the limiter's stand-in for it. Also the `name` tag.
   */
  path?: string;
  body?: unknown;
  /** A key of the pool instead of API_KEY. */
  key?: string;
  tags?: Record<string, string>;
}

/** Whether the request goes with a key: every endpoint but the public ones (part 3). */
export const keyed = (c: Call): boolean => ROUTES[c.endpoint].access !== 'public';

function queryOf(q: Call['query']): string {
  const parts = Object.entries(q ?? {}).flatMap(([k, v]) => (v === undefined ? [] : [`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`]));
  return parts.length ? `?${parts.join('&')}` : '';
}

/** The method, the templated name and the URL of a call, from the route list. */
function routeOf(cfg: LoadConfig, c: Call): { method: string; name: string; url: string } {
  const route = ROUTES[c.endpoint];
  const name = c.path ?? route.path;
  return { method: route.method, name, url: `${cfg.baseUrl}${fillPath(name, c.params ?? {}, c.endpoint)}${queryOf(c.query)}` };
}

// 429 is an expected answer in every scenario: the limiter saying no is data, not an error.
export function expect429AsNormal(): void {
  http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 429));
}

function paramsOf(cfg: LoadConfig, c: Call, name: string): { body: string | null; params: RefinedParams<ResponseType> } {
  const headers: Record<string, string> = {};
  const key = c.key ?? cfg.apiKey;
  if (keyed(c) && key) headers.Authorization = `Bearer ${key}`;
  let body: string | null = null;
  if (c.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(c.body);
  }
  return { body, params: { headers, tags: { endpoint: c.endpoint, name, ...c.tags }, timeout: '10s' } };
}

export function call(cfg: LoadConfig, c: Call): Res {
  const { method, name, url } = routeOf(cfg, c);
  const { body, params } = paramsOf(cfg, c, name);
  return http.request(method, url, body, params);
}

/** `n` copies of one request in parallel (up to the batch options), answers in order; `alsoExpected` statuses are no failure. */
export function callMany(cfg: LoadConfig, c: Call, n: number, alsoExpected: number[] = []): Res[] {
  const { method, name, url } = routeOf(cfg, c);
  const { body, params } = paramsOf(cfg, c, name);
  if (alsoExpected.length) params.responseCallback = http.expectedStatuses({ min: 200, max: 299 }, 429, ...alsoExpected);
  const reqs = Array.from({ length: n }, () => ({ method, url, body, params }));
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
