import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { API_VERSION_PREFIX, defaultProfile, routeOf } from '../../contract/index.ts';
import { HttpClient } from '../../conformance/http.ts';
import type { RecordingReceiver } from '../../receiver/recording.ts';
import { Probe } from '../probe.ts';
import { subscribeDetector } from './webhooks.ts';

// A target without a webhook list answers GET /webhooks with whatever status it gives an unknown
// route or method, which the spec leaves open: mutator seed 12 answered 400, detection kept the
// default listAndDelete true, and the gate failed the target's own document for lacking GET and
// DELETE /webhooks, which the spec's table does not have (issue 47).

function target(listStatus: number): Server {
  return createServer((req, res) => {
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    // The endpoint asked, through the contract's one router (never a pattern over the URL).
    const id = routeOf(defaultProfile, req.method ?? 'GET', (req.url ?? '/').slice(API_VERSION_PREFIX.length), Boolean(req.headers.authorization))?.id;
    if (id === 'webhooks.create') return send(201, { webhookId: 'wh1', events: [] });
    if (id === 'webhooks.list') return send(listStatus, { error: { code: 'method_refused', message: 'no such method' } });
    send(404, { error: { code: 'not_found', message: 'no route' } });
  });
}

describe('a webhook list the target does not serve', () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const c of closers) await c();
  });

  for (const status of [400, 404, 405, 422]) {
    it(`is recorded as not served when GET /webhooks answers ${status} to the key that subscribed`, async () => {
      const s = target(status).listen(0, '127.0.0.1');
      await new Promise((r) => s.once('listening', r));
      closers.push(() => new Promise<void>((r) => s.close(() => r())));
      const http = new HttpClient({ baseUrl: `http://127.0.0.1:${(s.address() as AddressInfo).port}/v1` });
      closers.push(() => http.close());
      const p = new Probe(http, { key: 'ck_test_k', maxRequests: 10, runId: 't' });
      await subscribeDetector.run(p);
      closers.push(() => p.fact<{ receiver: RecordingReceiver }>('subscription')!.receiver.close());
      expect(p.found.get('webhooks.listAndDelete')?.value).toBe(false);
    });
  }
});
