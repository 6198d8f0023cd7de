import type { FetchWrapper } from '../../embedded.ts';

// Building blocks of the mutants (mutant.ts): Request → Response wrappers around the sandbox's
// fetch handler that each break exactly one rule, on the requests it matches.

export type Next = (req: Request) => Promise<Response>;

/** Path under /v1 of a request, e.g. `/positions/pos_1`. */
export function pathOf(req: Request): string {
  return new URL(req.url).pathname.replace(/^\/v1/, '');
}

export function matches(req: Request, method: string, pattern: RegExp): boolean {
  return req.method === method && pattern.test(pathOf(req));
}

export const P = {
  lend: /^\/lend$/,
  borrow: /^\/borrow$/,
  position: /^\/positions\/[^/]+$/,
  cancel: /^\/positions\/[^/]+\/cancel$/,
  repay: /^\/positions\/[^/]+\/repay$/,
  list: /^\/users\/[^/]+\/positions$/,
  withdraw: /^\/users\/[^/]+\/withdraw$/,
  rates: /^\/rates$/,
  markets: /^\/markets$/,
  orderbook: /^\/markets\/[^/]+\/orderbook$/,
  vaults: /^\/vaults$/,
  webhooks: /^\/webhooks$/,
} as const;

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
