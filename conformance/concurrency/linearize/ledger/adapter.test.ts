import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../../../contract/index.ts';
import type { TimedExchange } from '../../exchanges.ts';
import { ledgerHistory } from './adapter.ts';
import { ledgerModel } from './model.ts';

// Exchanges in, operations in the ledger model's words out: the only place a path, a body or a
// status code is read.

let id = 0;
const ex = (kind: string, method: string, path: string, body: unknown, status?: number, json?: unknown, partner: 1 | 2 = 1): TimedExchange => ({
  id: id++,
  client: 0,
  kind,
  invoke: id,
  ...(status !== undefined ? { complete: id + 0.5, response: { status, json } } : {}),
  request: { method, path, body, partner },
});

describe('ledgerHistory', () => {
  it('reads each kind into an input and an output, and leaves out what the model does not read', () => {
    const h = [
      ex('lend', 'POST', '/lend', { userId: 'u', asset: 'USDC', amount: '1.50' }, 201, { positionId: 'p1', status: 'pending', autoRollover: true }),
      ex('withdraw', 'POST', '/users/u%20x/withdraw', { asset: 'USDC', amount: '5' }, 400, { error: { code: 'insufficient_funds', details: { available: '4', required: '5' } } }),
      ex('cancel', 'POST', '/positions/p1/cancel', undefined),
      ex('patch', 'PATCH', '/positions/p1', { autoRollover: false, other: 1 }, 200, {}),
      ex('read', 'GET', '/positions/p9', undefined, 200, { status: 'active', autoRollover: false }),
      ex('read', 'GET', '/positions/p1', undefined, 429, { error: { code: 'rate_limit_exceeded' } }),
      ex('borrow', 'POST', '/borrow', {}, 201, {}),
      ex('lend', 'POST', '/lend', { userId: 'w', asset: 'USDC', amount: '2' }, undefined, undefined, 2),
    ];
    const { history, ignored } = ledgerHistory(defaultProfile, h);
    expect(history.map((o) => [o.input, o.output])).toEqual([
      [{ kind: 'lend', account: '1/u', asset: 'USDC', amount: '1.5' }, { outcome: { kind: 'ok' }, positionId: 'p1', autoRollover: true, received: { status: 201 } }],
      [{ kind: 'withdraw', account: '1/u x', asset: 'USDC', amount: '5' }, { outcome: { kind: 'insufficient', available: '4', required: '5' }, received: { status: 400, code: 'insufficient_funds' } }],
      [{ kind: 'cancel', account: '1/u', id: 'p1' }, { outcome: { kind: 'unknown' } }],
      [{ kind: 'patch', account: '1/u', id: 'p1', flags: { autoRollover: false } }, { outcome: { kind: 'ok' }, received: { status: 200 } }],
      // A position whose create is not in the history: no known owner.
      [{ kind: 'read', account: '1/?', id: 'p9' }, { outcome: { kind: 'ok' }, status: 'active', autoRollover: false, received: { status: 200 } }],
      [{ kind: 'lend', account: '2/w', asset: 'USDC', amount: '2' }, { outcome: { kind: 'unknown' }, positionId: `?${h[7]!.id}` }],
    ]);
    expect(history[2]!.return).toBe(Number.POSITIVE_INFINITY);
    expect(history[0]!.return).toBe(h[0]!.complete);
    // A read refused before it read anything (429) and a kind the model does not know.
    expect(ignored).toEqual([h[5], h[6]]);
  });

  it('the ledger model partitions by account, in the order accounts first appear', () => {
    const h = [
      ex('withdraw', 'POST', '/users/v/withdraw', { asset: 'USDC', amount: '1' }, 202, {}),
      ex('lend', 'POST', '/lend', { userId: 'u', asset: 'USDC', amount: '1' }, 201, { positionId: 'p1' }),
      ex('cancel', 'POST', '/positions/p1/cancel', undefined, 200, {}),
      ex('withdraw', 'POST', '/users/v/withdraw', { asset: 'USDC', amount: '1' }, 202, {}, 2),
    ];
    const parts = ledgerModel({ spontaneousClose: false }).partition(ledgerHistory(defaultProfile, h).history);
    expect(parts.map((p) => p.map((o) => o.id))).toEqual([[h[0]!.id], [h[1]!.id, h[2]!.id], [h[3]!.id]]);
  });
});
