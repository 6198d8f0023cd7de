import { API_VERSION_PREFIX, defaultProfile, resolveCall, routeOfRequest, type PartnerEndpointId } from '../../../contract/index.ts';
import type { FetchWrapper } from '../../embedded.ts';

// Building blocks of the mutants (mutant.ts): Request → Response wrappers around the sandbox's
// fetch handler that each break exactly one rule, on the requests it matches.

export type Next = (req: Request) => Promise<Response>;

/**
 * The endpoint a request reached (contract routeOfRequest: the one router, keyed or not where the
 * authenticated and the public order book share a path), under the default profile the
 * mutants serve: the same answer the sandbox's own router gives, no pattern per endpoint.
 */
export function endpointOf(req: Request): PartnerEndpointId | undefined {
  return routeOfRequest(defaultProfile, req)?.id as PartnerEndpointId | undefined;
}

/** Whether a request reached one of these endpoints, by its own method (a 405 probe with another reaches none). */
export function matches(req: Request, ...ids: PartnerEndpointId[]): boolean {
  const id = endpointOf(req);
  return id !== undefined && ids.includes(id);
}

/** The value of a `{name}` parameter of the endpoint a request reached: `positionId` of /positions/pos_1. */
export function paramOf(req: Request, name: string): string | undefined {
  const e = routeOfRequest(defaultProfile, req);
  if (!e) return undefined;
  const at = e.path.split('/').indexOf(`{${name}}`);
  const path = new URL(req.url).pathname;
  const segs = path.slice(path.indexOf(API_VERSION_PREFIX) + API_VERSION_PREFIX.length).split('/');
  return at < 0 || segs[at] === undefined ? undefined : decodeURIComponent(segs[at]);
}

/** The URL of another endpoint of the same object (a position's cancel → the position itself), its parameters carried over. */
export function urlOf(req: Request, id: PartnerEndpointId, params: Record<string, string>): string {
  const u = new URL(req.url);
  u.pathname = u.pathname.slice(0, u.pathname.indexOf(API_VERSION_PREFIX) + API_VERSION_PREFIX.length) + resolveCall(defaultProfile, id, params).path;
  u.search = '';
  return u.toString();
}

export async function bodyJson(res: Response): Promise<unknown> {
  try {
    return await res.clone().json();
  } catch {
    return undefined;
  }
}

/** The same answer with a new JSON body (and optionally a new status). */
export function withJson(res: Response, body: unknown, status = res.status): Response {
  const headers = new Headers(res.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  headers.delete('content-length');
  return new Response(JSON.stringify(body), { status, headers });
}

/** Rewrites the JSON body of matching answers. */
export function rewrite(when: (req: Request, res: Response) => boolean, edit: (body: any, req: Request) => unknown, status?: number): FetchWrapper {
  return async (req, next) => {
    const res = await next(req);
    if (!when(req, res)) return res;
    const body = await bodyJson(res);
    if (body === undefined) return res;
    const copy = structuredClone(body);
    return withJson(res, edit(copy, req) ?? copy, status ?? res.status);
  };
}

/** Changes the request before the sandbox sees it. */
export function alterRequest(when: (req: Request) => boolean, edit: (req: Request) => Request | Promise<Request>): FetchWrapper {
  return async (req, next) => next(when(req) ? await edit(req) : req);
}

export function withQuery(req: Request, edit: (q: URLSearchParams) => void): Request {
  const u = new URL(req.url);
  edit(u.searchParams);
  return new Request(u, req);
}

export function withHeader(req: Request, name: string, value: string | null): Request {
  const h = new Headers(req.headers);
  if (value === null) h.delete(name);
  else h.set(name, value);
  return new Request(req.url, { method: req.method, headers: h, body: req.body, duplex: 'half' } as RequestInit);
}

export function stripHeaders(res: Response, names: string[]): Response {
  const h = new Headers(res.headers);
  for (const n of names) h.delete(n);
  return new Response(res.body, { status: res.status, headers: h });
}

export const errCode = (b: unknown): string | undefined => (b as { error?: { code?: string } } | undefined)?.error?.code;
