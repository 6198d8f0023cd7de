import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { writeAnswer } from '../answer/answer.ts';
import { internalErrorAnswer } from '../answer/errors.ts';
import type { RequestEnv } from '../pipeline/request.ts';

// A node:http door for a fetch handler (Request in, Response out), for callers that wrap the
// sandbox's fetch core in Request/Response middleware over a real socket: the mutants'
// proxy (conformance/embedded.ts serveWrapped) and the bench's fetch-door mode. It replaces
// @hono/node-server's `serve` there; the sandbox's own listener is node-listener.ts, which
// skips the Request and Response objects. No logic beyond translating the two.

export type FetchHandler = (req: Request, env: RequestEnv) => Promise<Response>;

/** The socket's request as a fetch Request (a fixed host: the client's Host is not trusted). */
function toRequest(incoming: IncomingMessage): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(incoming.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
  const method = incoming.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(`http://sandbox${incoming.url ?? '/'}`, {
    method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(incoming) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
}

async function write(res: Response, outgoing: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  res.headers.forEach((v, k) => (headers[k] = v));
  const setCookie = res.headers.getSetCookie();
  if (setCookie.length) headers['set-cookie'] = setCookie;
  const body = res.body ? Buffer.from(await res.arrayBuffer()) : undefined;
  outgoing.writeHead(res.status, headers);
  outgoing.end(body);
}

export function fetchListener(handle: FetchHandler): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  return (incoming, outgoing) => {
    const env: RequestEnv = { clientAddress: incoming.socket?.remoteAddress };
    Promise.resolve()
      .then(() => handle(toRequest(incoming), env))
      .then((res) => write(res, outgoing))
      .catch((e: unknown) => {
        console.error(`sandbox: fetch door: ${e instanceof Error ? e.stack : String(e)}`);
        if (outgoing.headersSent) outgoing.end();
        else writeAnswer(internalErrorAnswer(), outgoing);
      });
  };
}
