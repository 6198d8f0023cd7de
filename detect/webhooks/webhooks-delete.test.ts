import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION_PREFIX, defaultProfile, resolveCall, routeOf } from '../../contract/index.ts';
import { HttpClient } from '../../conformance/http.ts';
import { Probe } from '../probe.ts';
import { deleteOwn } from './webhooks.ts';

// A target that offers DELETE /webhooks/{id} beyond the spec's table, without a list (issue 33):
// detection deletes its subscription and records the form; with no id to delete by, it reads the
// subscription path's Allow header from a 405.

function target(allow: string): Server {
  return createServer((req, res) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    const path = (req.url ?? '/').slice(API_VERSION_PREFIX.length);
    // Whatever the method, a path of the delete endpoint (the contract's router, never a pattern over the URL).
    const onDeletePath = routeOf(defaultProfile, 'DELETE', path, true)?.id === 'webhooks.delete';
    if (req.method === 'DELETE' && path === resolveCall(defaultProfile, 'webhooks.delete', { webhookId: 'wh1' }).path) return send(204, {});
    if (onDeletePath) return send(405, { error: { code: 'invalid_request', message: 'method not allowed' } }, { allow });
    send(404, { error: { code: 'not_found', message: 'no route' } });
  });
}

describe('the delete form beyond the spec’s table', () => {
  const servers: Server[] = [];
  const bases: Record<string, string> = {};
  beforeAll(async () => {
    for (const allow of ['DELETE', 'POST']) {
      const s = target(allow).listen(0, '127.0.0.1');
      await new Promise((r) => s.once('listening', r));
      servers.push(s);
      bases[allow] = `http://127.0.0.1:${(s.address() as AddressInfo).port}/v1`;
    }
  });
  const clients: HttpClient[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  });

  const probe = (base: string) => {
    const http = new HttpClient({ baseUrl: base });
    clients.push(http);
    const p = new Probe(http, { key: 'ck_test_k', maxRequests: 10, runId: 't' });
    p.set('webhooks.listAndDelete', false, 'medium', [], 'GET /webhooks is not served');
    return p;
  };

  it('deletes its own subscription and records the delete as served without a list', async () => {
    const p = probe(bases.DELETE!);
    await deleteOwn(p, { id: 'wh1' });
    expect(p.found.get('webhooks.deleteWithoutList')?.value).toBe(true);
    expect(p.found.get('successStatus.DELETE /webhooks/{webhookId}')?.value).toBe(204);
  });

  it('reads Allow from a 405 when the registration gave no id: DELETE listed, or not', async () => {
    const yes = probe(bases.DELETE!);
    await deleteOwn(yes, {});
    expect(yes.found.get('webhooks.deleteWithoutList')).toMatchObject({ value: true, note: expect.stringMatching(/Allow: DELETE/) });
    const no = probe(bases.POST!);
    await deleteOwn(no, {});
    expect(no.found.get('webhooks.deleteWithoutList')?.value).toBe(false);
  });

  it('records no delete where DELETE answers as an unknown route', async () => {
    const p = probe(bases.POST!);
    await deleteOwn(p, { id: 'wh2' });
    expect(p.found.get('webhooks.deleteWithoutList')?.value).toBe(false);
    expect(p.found.has('successStatus.DELETE /webhooks/{webhookId}')).toBe(false);
  });
});
