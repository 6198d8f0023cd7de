import type { ServerResponse } from 'node:http';

// What the sandbox answers, before it is a Response: status, headers (lower-case names) and
// a body that is already text or bytes. Routes build these and the node listener writes
// them to the socket as they are; fetch callers get a Response made from one (toResponse).
// Building a Response per request, and reading it back in the listener, was a fifth of a
// GET's CPU.

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
}

export const JSON_TYPE = 'application/json';

export function jsonAnswer(status: number, text: string): Answer {
  return { status, headers: { 'content-type': JSON_TYPE }, body: text };
}

/** A value as a JSON answer (what Hono's c.json gave the plugins' routes: the same content type). */
export const json = (value: unknown, status = 200): Answer => jsonAnswer(status, JSON.stringify(value));

export function toResponse(a: Answer): Response {
  return new Response(a.body as BodyInit | null, { status: a.status, headers: a.headers });
}

export function writeAnswer(a: Answer, out: ServerResponse): void {
  const h = a.headers;
  // A cached answer counted its length once (pipeline/read-cache.ts cachedAnswer).
  if (a.body !== null && h['content-length'] === undefined) h['content-length'] = String(typeof a.body === 'string' ? Buffer.byteLength(a.body) : a.body.byteLength);
  out.writeHead(a.status, h);
  out.end(a.body ?? undefined);
}
