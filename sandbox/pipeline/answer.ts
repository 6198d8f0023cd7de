import type { ServerResponse } from 'node:http';
import { ApiError } from './errors.ts';

// What the sandbox answers, before it is a Response: status, headers (lower-case names) and
// a body that is already text or bytes. The lane builds these and the node listener writes
// them to the socket as they are; fetch callers get a Response made from one (toResponse).
// Building a Response per request, and reading it back in the listener, was a fifth of a
// GET's CPU.

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
}

export const JSON_TYPE = 'application/json';
const ERROR_TYPE = 'application/json; charset=utf-8';

export function jsonAnswer(status: number, text: string): Answer {
  return { status, headers: { 'content-type': JSON_TYPE }, body: text };
}

/** The spec's error object (part 7), the same bytes and headers as errors.ts' errorResponse. */
export function errorAnswer(err: ApiError): Answer {
  const error: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.details) error.details = err.details;
  const headers: Record<string, string> = { 'content-type': ERROR_TYPE };
  if (err.headers) for (const k in err.headers) headers[k.toLowerCase()] = err.headers[k]!;
  return { status: err.status, headers, body: JSON.stringify({ error }) };
}

export const internalErrorAnswer = (): Answer => errorAnswer(new ApiError('internal_error', 'internal error', 500));

export function toResponse(a: Answer): Response {
  return new Response(a.body as BodyInit | null, { status: a.status, headers: a.headers });
}

/** An answer read back from a Response (routes served by Hono pass the plugins' stages this way). */
export async function fromResponse(res: Response): Promise<Answer> {
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => (headers[k] = v));
  const body = res.body ? new Uint8Array(await res.arrayBuffer()) : null;
  return { status: res.status, headers, body };
}

export function writeAnswer(a: Answer, out: ServerResponse): void {
  const h = a.headers;
  if (a.body !== null) h['content-length'] = String(typeof a.body === 'string' ? Buffer.byteLength(a.body) : a.body.byteLength);
  out.writeHead(a.status, h);
  out.end(a.body ?? undefined);
}
