import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseProfile, routeOfRequest } from '../../contract/index.ts';
import { serveWrapped } from '../../conformance/embedded.ts';
import { detectProfile } from '../index.ts';

// A target that signs with a scheme outside every variant lendcheck knows (here an HMAC-SHA384
// of the raw body: issue 47, cause 2). Detection records the scheme as unknown (null), never a
// guess. The sandbox plays the target: its subscriptions are pointed at a relay that re-signs
// each delivery before passing it on to detection's receiver.

async function relay(): Promise<{ url: string; secrets: Map<string, string>; close(): Promise<void> }> {
  const secrets = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const to = new URL(req.url!, 'http://x').searchParams.get('to')!;
      const sig = createHmac('sha384', secrets.get(to) ?? '').update(raw).digest('hex');
      fetch(to, { method: 'POST', body: raw, headers: { 'content-type': 'application/json', 'x-service-signature': sig } })
        .then(async (r) => res.writeHead(r.status).end(await r.text()))
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, secrets, close: () => new Promise<void>((r) => { server.close(() => r()); server.closeAllConnections(); }) };
}

describe('profile detect: a signature scheme no variant matches', () => {
  it('records signature.scheme null with the reason, and the profile loads', { timeout: 90_000 }, async () => {
    const rx = await relay();
    const profile = parseProfile({});
    const target = await serveWrapped(async (req, next) => {
      if (routeOfRequest(profile, req)?.id !== 'webhooks.create') return next(req);
      const body = (await req.json()) as { url: string; secret?: string };
      const res = await next(new Request(req.url, { method: 'POST', headers: req.headers, body: JSON.stringify({ ...body, url: `${rx.url}?to=${encodeURIComponent(body.url)}` }) }));
      const text = await res.text();
      let secret = body.secret;
      try {
        secret ??= (JSON.parse(text) as { secret?: string }).secret;
      } catch {
        // no secret in the answer: the relay signs with an empty key, which matches nothing either
      }
      if (secret) rx.secrets.set(body.url, secret);
      return new Response(text, { status: res.status, headers: res.headers });
    }, { profile, controls: false, validateResponses: false });
    try {
      const d = await detectProfile({ baseUrl: target.url, apiKey: target.apiKey });
      expect(d.options['signature.scheme']).toMatchObject({ detected: true, value: null });
      expect(JSON.stringify(d.options['signature.scheme'])).toMatch(/none of the \d+ variants.*--signature-scheme/);
      // The profile written says unknown, and loads as such: the checks that verify then skip.
      expect(parseProfile(d.profile).signature.scheme).toBeNull();
    } finally {
      await target.close();
      await rx.close();
    }
  });
});
