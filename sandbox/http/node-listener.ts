import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import type { CachedAnswer } from './read-cache.ts';
import { writeAnswer, type Answer } from '../pipeline/answer.ts';
import type { Lane } from '../pipeline/dispatch.ts';
import { NodeLaneRequest } from '../pipeline/request.ts';

// The node:http listener in front of the sandbox's fetch-style core (`app.fetch`). Written by
// hand because @hono/node-server's listener, measured under a CPU profile, spends its share
// of a GET on work the sandbox never needs: a WHATWG URL parse of every request (`new URL`),
// a full Headers object built from the socket's headers for each `c.req.header()`, and three
// stream listeners per request. Here the request is a light object on Request.prototype (as
// @hono/node-server's own is): `url` is a string (Hono parses paths from strings), headers are
// read straight from `incoming.headers`, and a real Request (with a web stream) is built only
// if something asks for `body`. The core stays fetch-style and is what the tests call.
// With a lane (Sandbox.lane), the contract's routes skip Hono and Response objects: the lane
// gets the socket's request as it is and its answer is written as it is (lane/answer.ts).

/** @hono/node-server swaps in a light Response whose status, body and headers sit under an
 *  own symbol; installing it (its listener does so once) lets answers skip stream reads. */
getRequestListener(() => new Response(null));
const CACHE = Object.getOwnPropertySymbols(new Response('')).find((s) => s.description === 'cache');

type Fetch = (req: Request, env: { incoming: IncomingMessage; outgoing: ServerResponse }) => Response | Promise<Response>;

/** Read-only Headers over node's lower-cased header object; enough for Hono and the sandbox. */
class IncomingHeaders {
  constructor(private readonly h: IncomingMessage['headers']) {}
  get(name: string): string | null {
    const v = this.h[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }
  has(name: string): boolean {
    return this.h[name.toLowerCase()] !== undefined;
  }
  *entries(): IterableIterator<[string, string]> {
    for (const k of Object.keys(this.h)) yield [k, this.get(k)!];
  }
  *keys(): IterableIterator<string> {
    yield* Object.keys(this.h);
  }
  *values(): IterableIterator<string> {
    for (const [, v] of this.entries()) yield v;
  }
  forEach(cb: (value: string, key: string, parent: unknown) => void): void {
    for (const [k, v] of this.entries()) cb(v, k, this);
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

const INCOMING = Symbol('incoming');
const FULL = Symbol('full');
interface LightRequest {
  [INCOMING]: IncomingMessage;
  [FULL]?: Request;
  url: string;
}

function full(r: LightRequest): Request {
  const inc = r[INCOMING];
  if (!r[FULL]) {
    const headers = new Headers();
    for (let i = 0; i < inc.rawHeaders.length; i += 2) headers.append(inc.rawHeaders[i], inc.rawHeaders[i + 1]);
    const hasBody = inc.method !== 'GET' && inc.method !== 'HEAD';
    // A body already read by the sandbox (readJsonBody leaves it on rawBody) is handed on as is.
    const raw = (inc as IncomingMessage & { rawBody?: Buffer }).rawBody;
    const body = !hasBody ? undefined : raw ? new Uint8Array(raw) : (Readable.toWeb(inc) as ReadableStream);
    r[FULL] = new Request(r.url, { method: inc.method, headers, body, ...(body && !raw ? { duplex: 'half' } : {}) } as RequestInit);
  }
  return r[FULL];
}

const proto: object = Object.create(Request.prototype, {
  method: { get(this: LightRequest) { return this[INCOMING].method ?? 'GET'; } },
  headers: { get(this: LightRequest & { _h?: IncomingHeaders }) { return (this._h ??= new IncomingHeaders(this[INCOMING].headers)); } },
  url: { get(this: LightRequest & { _u: string }) { return this._u; } },
});
for (const k of ['body', 'bodyUsed', 'signal', 'cache', 'credentials', 'destination', 'integrity', 'mode', 'redirect', 'referrer', 'referrerPolicy', 'keepalive']) {
  Object.defineProperty(proto, k, { get(this: LightRequest) { return (full(this) as unknown as Record<string, unknown>)[k]; } });
}
for (const k of ['arrayBuffer', 'blob', 'clone', 'formData', 'json', 'text']) {
  Object.defineProperty(proto, k, { value(this: LightRequest) { return (full(this) as unknown as Record<string, () => unknown>)[k](); } });
}

function lightRequest(incoming: IncomingMessage): Request {
  const r = Object.create(proto) as LightRequest & { _u: string };
  r[INCOMING] = incoming;
  // The host is fixed: nothing in the sandbox reads it, and a client's Host header could
  // otherwise change how the path is split.
  r._u = `http://sandbox${incoming.url ?? '/'}`;
  // A body of unknown length goes through Hono's bodyLimit, which wraps the request in a new
  // Request: that needs a real one (rare; orders declare their length).
  const m = incoming.method;
  if (m !== 'GET' && m !== 'HEAD' && (incoming.headers['content-length'] === undefined || incoming.headers['transfer-encoding'] !== undefined)) return full(r);
  return r as unknown as Request;
}

function outgoingHeaders(h: unknown): Record<string, string | string[]> {
  if (!h) return {};
  if (h instanceof Headers) {
    const out: Record<string, string | string[]> = {};
    h.forEach((v, k) => (out[k] = v));
    const cookies = h.getSetCookie();
    if (cookies.length) out['set-cookie'] = cookies;
    return out;
  }
  if (Array.isArray(h)) return outgoingHeaders(new Headers(h as [string, string][]));
  return { ...(h as Record<string, string>) };
}

/** Status, body and headers of a light Response, when the body is already text or bytes;
 *  undefined sends the answer the slow way (reading the Response). */
export function lightParts(res: Response): [number, string | Uint8Array | null, unknown] | undefined {
  const cached = CACHE ? (res as unknown as Record<symbol, [number, unknown, unknown] | undefined>)[CACHE] : undefined;
  if (cached && (typeof cached[1] === 'string' || cached[1] === null || cached[1] instanceof Uint8Array)) return cached as [number, string | Uint8Array | null, unknown];
  return undefined;
}

async function write(res: Response, out: ServerResponse): Promise<void> {
  const cached = lightParts(res);
  if (cached) {
    const [status, body, h] = cached;
    const headers = outgoingHeaders(h);
    if (!('content-type' in headers) && !('Content-Type' in headers) && typeof body === 'string') headers['content-type'] = 'text/plain; charset=UTF-8';
    if (body !== null) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : (body as Uint8Array).byteLength);
    out.writeHead(status, headers);
    out.end(body ?? undefined);
    return;
  }
  const headers = outgoingHeaders(res.headers);
  const body = res.body ? Buffer.from(await res.arrayBuffer()) : undefined;
  if (body) headers['content-length'] = String(body.length);
  out.writeHead(res.status, headers);
  out.end(body);
}

/** A repeated read answered without the core (Sandbox.cachedRead); undefined: ask the core. */
type CachedRead = (target: string, authorization: string | undefined) => CachedAnswer | undefined;

/** A lane's answer to the socket; an unread body (a refused request) is drained so the
 *  connection can be reused. */
function send(a: Answer, incoming: IncomingMessage, outgoing: ServerResponse): void {
  writeAnswer(a, outgoing);
  drain(incoming);
}

/** An unread body (a refused request) is drained so the connection can be reused. */
function drain(incoming: IncomingMessage): void {
  if (!incoming.readableEnded && !incoming.readableDidRead) incoming.resume();
}

export function nodeListener(fetch: Fetch, cachedRead?: CachedRead, lane?: Lane): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  const fail = (outgoing: ServerResponse) => (e: unknown) => {
    console.error(`sandbox: cannot answer: ${e instanceof Error ? e.stack : String(e)}`);
    if (!outgoing.headersSent) outgoing.writeHead(500, { 'content-type': 'application/json' });
    outgoing.end('{"error":{"code":"internal_error","message":"internal error"}}');
  };
  return (incoming, outgoing) => {
    if (cachedRead && incoming.method === 'GET') {
      const a = cachedRead(incoming.url ?? '/', incoming.headers.authorization);
      if (a) {
        // The headers the core's answer gets below (Hono's c.body with this content type).
        outgoing.writeHead(a.status, { 'content-type': 'application/json', 'content-length': String(a.length) });
        outgoing.end(a.body);
        drain(incoming);
        return;
      }
    }
    if (lane) {
      const a = lane(new NodeLaneRequest(incoming, outgoing));
      if (a !== undefined) {
        if (a instanceof Promise) a.then((x) => send(x, incoming, outgoing)).catch(fail(outgoing));
        else {
          try {
            send(a, incoming, outgoing);
          } catch (e) {
            fail(outgoing)(e);
          }
        }
        return;
      }
    }
    const answer = async () => {
      const res = await fetch(lightRequest(incoming), { incoming, outgoing });
      await write(res, outgoing);
      drain(incoming);
    };
    answer().catch(fail(outgoing));
  };
}
