import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION_PREFIX } from '../contract/index.ts';
import { HttpClient } from '../conformance/http.ts';
import { cancelPlaced, removeSubscriptions } from './cleanup.ts';
import { OutOfBudget, Probe } from './probe.ts';

// Cleaning up is owed, never cut by the budget (a Starter run's detection once spent its 100
// requests and left resting lends on the book): each order placed and each subscription taken
// keeps room for its cancel or DELETE, and the whole detection, cleanup included, stays within
// the budget.

let seq = 0;
const cancelled: string[] = [];
const deleted: string[] = [];
const server: Server = createServer((req, res) => {
  const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const path = (req.url ?? '/').slice(API_VERSION_PREFIX.length).split('?')[0]!;
  if (req.method === 'POST' && (path === '/lend' || path === '/borrow')) return send(201, { positionId: `pos_${++seq}`, status: 'pending' });
  const cancel = /^\/positions\/([^/]+)\/cancel$/.exec(path);
  if (req.method === 'POST' && cancel) return cancelled.push(cancel[1]!), send(200, { positionId: cancel[1], status: 'cancelled' });
  if (req.method === 'POST' && path === '/webhooks') return send(201, { webhookId: `wh_${++seq}` });
  const del = /^\/webhooks\/([^/]+)$/.exec(path);
  if (req.method === 'DELETE' && del) return deleted.push(del[1]!), send(200, { deleted: true });
  send(200, { markets: [] });
});

let base = '';
const clients: HttpClient[] = [];
beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await new Promise<void>((r) => server.close(() => r()));
});

const probe = (maxRequests: number) => {
  const http = new HttpClient({ baseUrl: base });
  clients.push(http);
  return new Probe(http, { key: 'ck_test_k', maxRequests, runId: 't' });
};
const lend = (p: Probe) => p.call('lend.create', { body: { userId: p.user('u'), asset: 'USDC', amount: '10', rate: 0.5, maturity: '30d' } });

describe('cleanup owed within the budget', () => {
  it('keeps room for the cancel of every order placed, and the cancels of the end fit', async () => {
    const p = probe(5);
    await lend(p);
    await lend(p);
    expect(p.owed).toBe(2);
    expect(p.left).toBe(1);
    // One request left, but a lend would leave a third cancel owed with no room for it.
    await expect(lend(p)).rejects.toBeInstanceOf(OutOfBudget);
    await p.api('GET', '/markets');
    await expect(p.api('GET', '/markets')).rejects.toBeInstanceOf(OutOfBudget);
    expect(await cancelPlaced(p)).toEqual([]);
    expect(p.used).toBe(5);
    expect(p.owed).toBe(0);
  });

  it('releases an order its detector cancelled itself, or that matched (settled)', async () => {
    const p = probe(10);
    const a = (await lend(p)).json as { positionId: string };
    const b = (await lend(p)).json as { positionId: string };
    await p.call('position.cancel', { params: { positionId: a.positionId } });
    p.settled(b.positionId);
    expect(p.owed).toBe(0);
    const before = cancelled.length;
    await cancelPlaced(p);
    expect(cancelled.length).toBe(before);
  });

  it('counts a subscription’s DELETE within the budget, kept for it when it was taken', async () => {
    const p = probe(3);
    await p.call('webhooks.create', { body: { url: 'http://127.0.0.1:1/hook', events: ['position.created'] } });
    await p.api('GET', '/markets');
    await expect(p.api('GET', '/markets')).rejects.toBeInstanceOf(OutOfBudget);
    expect(await removeSubscriptions(p)).toEqual([]);
    expect(p.used).toBe(3);
    expect(deleted.length).toBe(1);
  });
});
