import { describe, expect, it } from 'vitest';
import { defaultProfile, type EndpointId } from '../../../../contract/index.ts';
import type { OpIds, TimedExchange } from '../../exchanges.ts';
import { ledgerHistory } from './adapter.ts';
import { ledgerModel } from './model.ts';

// Exchanges in, operations in the ledger model's words out: the only place a body or a status
// code is read. The endpoint and the ids come as recorded with the call: the path is not read
// (these paths even disagree with the ids, and the ids win).

let id = 0;
const ex = (kind: EndpointId, ids: OpIds, method: string, body: unknown, status?: number, json?: unknown, partner: 1 | 2 = 1): TimedExchange => ({
  id: id++,
  client: 0,
  kind,
  invoke: id,
  ...(status !== undefined ? { complete: id + 0.5, response: { status, json } } : {}),
  request: { method, path: '/not-read', ids, body, partner },
});

describe('ledgerHistory', () => {
  it('reads each kind into an input and an output, and leaves out what the model does not read', () => {
    const h = [
      ex('lend.create', {}, 'POST', { userId: 'u', asset: 'USDC', amount: '1.50' }, 201, { positionId: 'p1', status: 'pending', autoRollover: true }),
      ex('user.withdraw', { userId: 'u x' }, 'POST', { asset: 'USDC', amount: '5' }, 400, { error: { code: 'insufficient_funds', details: { available: '4', required: '5' } } }),
      ex('position.cancel', { positionId: 'p1' }, 'POST', undefined),
      ex('position.patch', { positionId: 'p1' }, 'PATCH', { autoRollover: false, other: 1 }, 200, {}),
      ex('position.get', { positionId: 'p9' }, 'GET', undefined, 200, { status: 'active', autoRollover: false }),
      ex('position.get', { positionId: 'p1' }, 'GET', undefined, 429, { error: { code: 'rate_limit_exceeded' } }),
      ex('borrow.create', {}, 'POST', {}, 201, {}),
      ex('lend.create', {}, 'POST', { userId: 'w', asset: 'USDC', amount: '2' }, undefined, undefined, 2),
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
      ex('user.withdraw', { userId: 'v' }, 'POST', { asset: 'USDC', amount: '1' }, 202, {}),
      ex('lend.create', {}, 'POST', { userId: 'u', asset: 'USDC', amount: '1' }, 201, { positionId: 'p1' }),
      ex('position.cancel', { positionId: 'p1' }, 'POST', undefined, 200, {}),
      ex('user.withdraw', { userId: 'v' }, 'POST', { asset: 'USDC', amount: '1' }, 202, {}, 2),
    ];
    const parts = ledgerModel({ spontaneousClose: false }).partition(ledgerHistory(defaultProfile, h).history);
    expect(parts.map((p) => p.map((o) => o.id))).toEqual([[h[0]!.id], [h[1]!.id, h[2]!.id], [h[3]!.id]]);
  });
});
