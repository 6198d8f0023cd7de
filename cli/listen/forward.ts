import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { EVENT_TYPES, UNKNOWN_SCHEME_REASON, resolveCall, type CallInput, type PartnerEndpointId, type Profile } from '../../contract/index.ts';
import { generateWebhookSecret, verifyWebhook } from '../../signing/signature.ts';
import { findId } from '../../conformance/body-id.ts';

// `lendcheck listen`, like `stripe listen --forward-to`: a subscription on the target whose
// url is a local port; every delivery that arrives there is verified with the subscription
// secret, then forwarded, with its original headers and raw body, to the partner's receiver.
// The sender gets the receiver's own status back (502 when it cannot be reached), so the
// target's retries play out against the partner's code. The subscription goes through the
// spec's endpoints (POST /webhooks, DELETE /webhooks/{id}), so any implementation will do.

export interface ListenOptions {
  /** The target's base URL, ending in /v1. */
  baseUrl: string;
  apiKey: string;
  profile: Profile;
  /** The partner's local receiver. */
  forwardTo: string;
  events?: readonly string[];
  /** The secret to register (the one the partner's receiver checks); generated when absent. */
  secret?: string;
  /** Local port deliveries arrive at (0: any free one). */
  port?: number;
  /** The address the target reaches this machine at (default 127.0.0.1). */
  host?: string;
  /** One line per delivery, and notes. */
  log?: (line: string) => void;
  /** Deadline for the receiver's answer (ms); the spec's 5 s by default. */
  timeoutMs?: number;
}

export interface Forwarded {
  id: string | null;
  type: string | null;
  /** The receiver's status, null when it did not answer. */
  status: number | null;
  ms: number;
  /** Why it was not forwarded or not answered. */
  error?: string;
}

export interface Listener {
  /** Where the target delivers. */
  url: string;
  webhookId: string | undefined;
  /** The subscription secret (the target's own when it returned one). */
  secret: string;
  forwarded: Forwarded[];
  /** Removes the subscription, then stops listening. */
  close(): Promise<void>;
}

// Hop-by-hop and length headers are the forwarder's own; every other header goes on as it came.
const NOT_FORWARDED = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'expect', 'upgrade']);

function forwardHeaders(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined && !NOT_FORWARDED.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function envelopeOf(raw: Buffer): { id: string | null; type: string | null } {
  try {
    const v = JSON.parse(raw.toString('utf8')) as { id?: unknown; type?: unknown };
    return { id: typeof v.id === 'string' ? v.id : null, type: typeof v.type === 'string' ? v.type : null };
  } catch {
    return { id: null, type: null };
  }
}

/** The line printed per delivery: time, type, id, the receiver's status and latency. */
export function formatLine(f: Forwarded, at = new Date()): string {
  const t = at.toISOString().slice(11, 19);
  const answer = f.status === null ? `✗ ${f.error ?? 'no answer'}` : `${f.status}`;
  return `${t}  ${(f.type ?? '?').padEnd(20)} ${(f.id ?? '?').padEnd(28)} → ${answer}  ${Math.round(f.ms)} ms`;
}

/** Calls an endpoint of the contract's table by its id (contract/call.ts): method and path from the table, under the profile. */
async function api<Id extends PartnerEndpointId>(o: ListenOptions, id: Id, input: CallInput<Id>): Promise<{ status: number; json: unknown; text: string }> {
  const { params, body } = input as { params?: Record<string, string>; body?: unknown };
  const { method, path } = resolveCall(o.profile, id, params);
  const r = await request(`${o.baseUrl}${path}`, {
    method: method as 'POST',
    headers: { authorization: `Bearer ${o.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  const text = await r.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.statusCode, json, text };
}

function findSecret(v: unknown): string | undefined {
  if (typeof v === 'string') return v.startsWith('whsec_') ? v : undefined;
  if (v && typeof v === 'object') for (const x of Object.values(v)) if (findSecret(x)) return findSecret(x);
  return undefined;
}

export async function startListen(o: ListenOptions): Promise<Listener> {
  const log = o.log ?? ((l: string) => console.log(l));
  // Deliveries are verified before they are forwarded: under an unknown scheme nothing could be.
  const scheme = o.profile.signature.scheme;
  if (scheme === null) throw new Error(UNKNOWN_SCHEME_REASON);
  const forwarded: Forwarded[] = [];
  const timeoutMs = o.timeoutMs ?? 5_000;
  let secret = o.secret ?? generateWebhookSecret();

  const host = o.host ?? '127.0.0.1';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      (async () => {
        const raw = Buffer.concat(chunks);
        const env = envelopeOf(raw);
        const t0 = performance.now();
        const v = verifyWebhook(raw, req.headers, secret, { scheme, toleranceSeconds: o.profile.signature.toleranceSeconds });
        let f: Forwarded;
        if (!v.ok) {
          // Not the target's delivery (or not with this secret): refused as the spec says, never forwarded.
          f = { ...env, status: null, ms: 0, error: `signature ${v.reason} (${scheme}); not forwarded, answered 401` };
          res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'authentication_failed', message: `signature ${v.reason}` } }));
        } else {
          try {
            const r = await request(o.forwardTo, { method: 'POST', headers: forwardHeaders(req.headers), body: raw, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
            const text = await r.body.text();
            f = { ...env, status: r.statusCode, ms: performance.now() - t0 };
            res.writeHead(r.statusCode, { 'content-type': String(r.headers['content-type'] ?? 'text/plain') }).end(text);
          } catch (e) {
            const err = e as Error & { code?: string };
            f = { ...env, status: null, ms: performance.now() - t0, error: err.code ?? err.message };
            res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'internal_error', message: `lendcheck listen: ${o.forwardTo} did not answer (${f.error})` } }));
          }
        }
        forwarded.push(f);
        log(formatLine(f));
      })().catch((e: unknown) => {
        log(`lendcheck listen: ${(e as Error).message}`);
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback unless the target reaches this machine at another address.
    server.listen(o.port ?? 0, host === '127.0.0.1' || host === 'localhost' ? host : '0.0.0.0', resolve);
  });
  // Any path reaches the handler above; this one names the listener, not the target's API.
  const url = `http://${host}:${(server.address() as AddressInfo).port}/lendcheck-listen`;
  const closeServer = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });

  const reg = await api(o, 'webhooks.create', { body: { url, events: [...(o.events ?? EVENT_TYPES)], secret } }).catch(async (e: Error) => {
    await closeServer();
    throw new Error(`cannot reach ${o.baseUrl}: ${e.message}`);
  });
  if (reg.status < 200 || reg.status > 299) {
    await closeServer();
    throw new Error(`POST ${o.baseUrl}${resolveCall(o.profile, 'webhooks.create').path} answered ${reg.status}: ${reg.text.slice(0, 300)}`);
  }
  // A target that generates its own secret and returns it signs with that one.
  const theirs = findSecret(reg.json);
  if (theirs && theirs !== secret) secret = theirs;
  const webhookId = findId(reg.json, o.profile.ids.webhook)?.value;

  let closed = false;
  return {
    url,
    webhookId,
    get secret() {
      return secret;
    },
    forwarded,
    async close() {
      if (closed) return;
      closed = true;
      try {
        if (!webhookId) log('note: the registration named no subscription id, so it is left on the target');
        else if (!o.profile.webhooks.listAndDelete) log(`note: the profile says the target has no DELETE /webhooks/{id}; subscription ${webhookId} is left on it`);
        else {
          const d = await api(o, 'webhooks.delete', { params: { webhookId } });
          log(d.status >= 200 && d.status < 300 ? `removed subscription ${webhookId}` : `could not remove subscription ${webhookId}: DELETE answered ${d.status}`);
        }
      } catch (e) {
        log(`could not remove subscription ${webhookId}: ${(e as Error).message}`);
      } finally {
        await closeServer();
      }
    },
  };
}
