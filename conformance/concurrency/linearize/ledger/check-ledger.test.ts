import { describe, expect, it } from 'vitest';
import { defaultProfile, parseProfile, type EndpointId } from '../../../../contract/index.ts';
import type { Exchanges, TimedExchange } from '../../exchanges.ts';
import { checkLedger, type LedgerCheck } from './check-ledger.ts';

// Hand-written histories, legal and illegal, before the checker meets a server: exchanges as a
// storm records them, read by the adapter and checked against the ledger model.

let next = 0;
function op(client: number, kind: EndpointId, invoke: number, complete: number | undefined, request: Partial<TimedExchange['request']>, status?: number, json?: unknown): TimedExchange {
  return {
    id: next++,
    client,
    kind,
    invoke,
    ...(complete !== undefined ? { complete } : {}),
    request: { method: 'POST', path: '/', ids: {}, partner: 1, ...request },
    ...(status !== undefined ? { response: { status, json } } : {}),
  };
}
const withdraw = (c: number, t0: number, t1: number | undefined, amount: string, status?: number, json?: unknown) =>
  op(c, 'user.withdraw', t0, t1, { path: '/users/u/withdraw', ids: { userId: 'u' }, body: { asset: 'USDC', amount, destination: '0x' } }, status, json);
const lend = (c: number, t0: number, t1: number | undefined, amount: string, status?: number, id = 'p1', extra: Record<string, unknown> = {}) =>
  op(c, 'lend.create', t0, t1, { path: '/lend', body: { userId: 'u', asset: 'USDC', amount } }, status, status && status < 300 ? { positionId: id, status: 'pending', autoRollover: true, ...extra } : { error: { code: 'insufficient_funds', message: 'no' } });
const cancel = (c: number, t0: number, t1: number, id: string, status: number) =>
  op(c, 'position.cancel', t0, t1, { path: `/positions/${id}/cancel`, ids: { positionId: id } }, status, status < 300 ? { status: 'cancelled' } : { error: { code: status === 404 ? 'position_not_found' : 'invalid_request', message: 'no' } });
const read = (c: number, t0: number, t1: number, id: string, status: string, extra: Record<string, unknown> = {}) =>
  op(c, 'position.get', t0, t1, { method: 'GET', path: `/positions/${id}`, ids: { positionId: id } }, 200, { positionId: id, status, ...extra });
const patch = (c: number, t0: number, t1: number, id: string, body: Record<string, unknown>, status: number) =>
  op(c, 'position.patch', t0, t1, { method: 'PATCH', path: `/positions/${id}`, ids: { positionId: id }, body }, status, status < 300 ? {} : { error: { code: 'invalid_request', message: 'no' } });
const poor = (available: string, required: string) => ({ error: { code: 'insufficient_funds', message: 'no', details: { available, required } } });

const model = (start?: string, spontaneousClose = false): LedgerCheck => ({ profile: defaultProfile, spontaneousClose, ...(start ? { start: { '1/u': { USDC: start } } } : {}) });
const check = (h: Exchanges, m = model('1000')) => checkLedger(h, m);

describe('legal histories', () => {
  it('two concurrent withdrawals that fit, and a third refused with the exact balance', () => {
    const h = [withdraw(0, 0, 10, '600', 202), withdraw(1, 1, 9, '300', 202), withdraw(2, 12, 14, '200', 400, poor('100', '200'))];
    expect(check(h).linearizable).toBe(true);
  });

  it('overlapping withdrawals: only one of two 600s accepted, the refusal may see either balance', () => {
    const h = [withdraw(0, 0, 10, '600', 202), withdraw(1, 1, 9, '600', 400, poor('400', '600'))];
    expect(check(h).linearizable).toBe(true);
    // The refusal came first in real time, seeing the whole balance: still legal.
    expect(check([withdraw(0, 0, 10, '600', 202), withdraw(1, 1, 9, '1200', 400, poor('1000', '1200'))]).linearizable).toBe(true);
  });

  it('a create answered pending and read active later is fine: matching happens on its own', () => {
    const h = [lend(0, 0, 2, '100', 201), read(0, 3, 4, 'p1', 'active'), cancel(1, 5, 6, 'p1', 400), read(1, 7, 8, 'p1', 'active')];
    expect(check(h).linearizable).toBe(true);
  });

  it('a cancel refused while a read still shows pending: part-filled orders stay pending', () => {
    const h = [lend(0, 0, 2, '100', 201), cancel(0, 3, 4, 'p1', 400), read(0, 5, 6, 'p1', 'pending')];
    expect(check(h).linearizable).toBe(true);
  });

  it('two concurrent cancels: one accepted, one refused, and the funds come back once', () => {
    const h = [
      lend(0, 0, 2, '700', 201),
      cancel(0, 3, 10, 'p1', 200),
      cancel(1, 4, 9, 'p1', 400),
      withdraw(2, 11, 12, '1000', 202),
      withdraw(2, 13, 14, '1', 400, poor('0', '1')),
    ];
    expect(check(h).linearizable).toBe(true);
  });

  it('a withdrawal with no answer may or may not have happened', () => {
    const took = [withdraw(0, 0, undefined, '600'), withdraw(1, 5, 6, '500', 400, poor('400', '500'))];
    const not = [withdraw(0, 0, undefined, '600'), withdraw(1, 5, 6, '500', 202)];
    expect(check(took).linearizable).toBe(true);
    expect(check(not).linearizable).toBe(true);
  });

  it('an unknown start: accepted debits and refusals without details narrow it', () => {
    const h = [withdraw(0, 0, 1, '500', 202), withdraw(0, 2, 3, '500', 400, { error: { code: 'insufficient_funds', message: 'no' } }), withdraw(0, 4, 5, '499', 202)];
    expect(check(h, model()).linearizable).toBe(true);
  });

  it('a 429 and a validation 400 take no effect', () => {
    const h = [withdraw(0, 0, 1, '900', 429, { error: { code: 'rate_limit_exceeded', message: 'slow' } }), withdraw(1, 0, 1, '900', 400, { error: { code: 'invalid_request', message: 'amount' } }), withdraw(0, 2, 3, '1000', 202)];
    expect(check(h).linearizable).toBe(true);
  });

  it('the last accepted PATCH is what a later read shows', () => {
    const h = [lend(0, 0, 1, '10', 201), patch(0, 2, 3, 'p1', { autoRollover: false }, 200), read(1, 4, 5, 'p1', 'pending', { autoRollover: false })];
    expect(check(h).linearizable).toBe(true);
  });

  it('with maturity reachable, an open lend may expire and give its funds back unasked', () => {
    const h = [lend(0, 0, 1, '800', 201), withdraw(0, 2, 3, '900', 202), read(0, 4, 5, 'p1', 'cancelled')];
    expect(check(h, model('1000', true)).linearizable).toBe(true);
    // Without it, the same history is an overdraft.
    expect(check(h, model('1000', false)).linearizable).toBe(false);
  });

  it('an invalid-state code of the profile is read as such', () => {
    const profile = parseProfile({ errors: { invalidState: { code: 'conflict', status: 409 } } });
    const h = [lend(0, 0, 1, '10', 201), cancel(0, 2, 3, 'p1', 200), op(1, 'position.cancel', 4, 5, { path: '/positions/p1/cancel', ids: { positionId: 'p1' } }, 409, { error: { code: 'conflict', message: 'no' } })];
    expect(checkLedger(h, { profile, spontaneousClose: false, start: { '1/u': { USDC: '1000' } } }).linearizable).toBe(true);
  });
});

describe('illegal histories', () => {
  it('two overlapping withdrawals of 600 from 1000 both accepted: the overdraft, shown on a timeline', () => {
    const h = [read(3, 0, 1, 'zz', 'pending'), withdraw(0, 2, 12, '600', 202), withdraw(1, 3, 11, '600', 202), withdraw(2, 20, 21, '5', 202)];
    // The read of an unknown position is itself illegal; drop it for this case.
    const v = check(h.slice(1));
    expect(v.linearizable).toBe(false);
    expect(v.inconclusive).toBe(false);
    expect(v.witness!.operations.map((o) => o.request.body)).toEqual([expect.objectContaining({ amount: '600' }), expect.objectContaining({ amount: '600' })]);
    expect(v.witness!.setAside).toBe(1);
    expect(v.witness!.text).toMatch(/client 0 +\[A=+\]/);
    expect(v.witness!.text).toMatch(/client 1 +\[B=+\]/);
    expect(v.witness!.text).toContain('at most 400 USDC can be available then');
    expect(v.witness!.summary).toContain('withdraw 600 USDC → 202 accepted');
  });

  it('two cancels of one order both accepted: a refund paid twice', () => {
    const h = [lend(0, 0, 2, '700', 201), cancel(0, 3, 10, 'p1', 200), cancel(1, 4, 9, 'p1', 200)];
    const v = check(h);
    expect(v.linearizable).toBe(false);
    expect(v.witness!.text).toMatch(/already cancelled/);
  });

  it('a refund paid twice by one cancel shows in a later exact balance', () => {
    const h = [lend(0, 0, 1, '700', 201), cancel(0, 2, 3, 'p1', 200), withdraw(0, 4, 5, '2000', 400, poor('1700', '2000'))];
    const v = check(h);
    expect(v.linearizable).toBe(false);
    expect(v.witness!.summary).toContain('1700 USDC available');
  });

  it('a withdrawal accepted but never debited shows in a later exact balance', () => {
    const h = [withdraw(0, 0, 1, '400', 202), withdraw(0, 2, 3, '5000', 400, poor('1000', '5000'))];
    expect(check(h).linearizable).toBe(false);
  });

  it('a refusal in real time after an accepted debit cannot see the balance before it', () => {
    const h = [withdraw(0, 0, 1, '600', 202), withdraw(1, 2, 3, '1200', 400, poor('1000', '1200'))];
    expect(check(h).linearizable).toBe(false);
  });

  it('an active position does not go back to pending, and a cancelled one does not reopen', () => {
    expect(check([lend(0, 0, 1, '10', 201), read(0, 2, 3, 'p1', 'active'), read(1, 4, 5, 'p1', 'pending')]).linearizable).toBe(false);
    expect(check([lend(0, 0, 1, '10', 201), cancel(0, 2, 3, 'p1', 200), read(1, 4, 5, 'p1', 'active')]).linearizable).toBe(false);
  });

  it('a lost update: a read after an acknowledged PATCH shows the old flag', () => {
    const h = [lend(0, 0, 1, '10', 201), patch(0, 2, 3, 'p1', { autoRollover: false }, 200), read(1, 4, 5, 'p1', 'pending', { autoRollover: true })];
    const v = check(h);
    expect(v.linearizable).toBe(false);
    expect(v.witness!.text).toContain('autoRollover true');
  });

  it('an acknowledged position that a later read cannot find', () => {
    const h = [lend(0, 0, 1, '10', 201), op(1, 'position.get', 2, 3, { method: 'GET', path: '/positions/p1', ids: { positionId: 'p1' } }, 404, { error: { code: 'position_not_found', message: 'no' } })];
    expect(check(h).linearizable).toBe(false);
  });

  it('a refusal whose details claim enough available', () => {
    expect(check([withdraw(0, 0, 1, '10', 400, poor('50', '10'))]).linearizable).toBe(false);
  });
});

describe('search', () => {
  it('keeps its memo small on a wide storm: 12 clients of 3 overlapping withdrawals each', () => {
    const h: TimedExchange[] = [];
    for (let c = 0; c < 12; c++) for (let k = 0; k < 3; k++) h.push(withdraw(c, k * 10 + c * 0.1, k * 10 + 9, '10', 202));
    const v = checkLedger(h, model('360'));
    expect(v.linearizable).toBe(true);
    expect(v.steps).toBeLessThan(200_000);
  });

  it('a double refund among 18 overlapping withdrawals is found and cut down to the two answers that conflict', () => {
    const h: TimedExchange[] = [lend(12, 0, 1, '100', 201)];
    for (let c = 0; c < 6; c++) for (let k = 0; k < 3; k++) h.push(withdraw(c, k * 10 + c * 0.1 + 2, k * 10 + 11, '10', 202));
    h.push(cancel(12, 5, 20, 'p1', 200), cancel(13, 6, 19, 'p1', 200));
    const v = checkLedger(h, model('1000'));
    expect(v.linearizable).toBe(false);
    expect(v.inconclusive).toBe(false);
    // The lend set aside may still have created the order; the two accepted cancels conflict anyway.
    expect(v.witness!.operations.map((o) => o.kind)).toEqual(['position.cancel', 'position.cancel']);
    expect(v.witness!.setAside).toBe(19);
  });

  it('a search over its budget is inconclusive, never a failure', () => {
    const h: TimedExchange[] = [];
    for (let c = 0; c < 12; c++) for (let k = 0; k < 3; k++) h.push(withdraw(c, k * 10 + c * 0.1, k * 10 + 9, '10', 202));
    const v = checkLedger(h, model('350'), { maxSteps: 50 });
    expect(v.inconclusive).toBe(true);
    expect(v.linearizable).toBe(false);
    expect(v.witness).toBeUndefined();
  });
});

describe('accounts', () => {
  // The model partitions by account (partner, user): each user's funds are their own.
  const wd = (user: string, c: number, t0: number, t1: number, amount: string, status: number, json?: unknown) => op(c, 'user.withdraw', t0, t1, { path: `/users/${user}/withdraw`, ids: { userId: user }, body: { asset: 'USDC', amount, destination: '0x' } }, status, json);
  const lendOf = (user: string, c: number, t0: number, t1: number, amount: string, id: string) => op(c, 'lend.create', t0, t1, { path: '/lend', body: { userId: user, asset: 'USDC', amount } }, 201, { positionId: id, status: 'pending' });
  const two = (u: string, v: string): LedgerCheck => ({ profile: defaultProfile, spontaneousClose: false, start: { '1/u': { USDC: u }, '1/v': { USDC: v } } });

  it('an overdraft on one user is found among another user’s legal operations, and only its answers are named', () => {
    const h = [wd('v', 0, 0, 10, '900', 202), wd('u', 1, 1, 9, '600', 202), wd('u', 2, 2, 8, '600', 202), wd('v', 3, 3, 7, '100', 202)];
    const v = checkLedger(h, two('1000', '1000'));
    expect(v.linearizable).toBe(false);
    expect(v.witness!.operations.map((o) => o.request.path)).toEqual(['/users/u/withdraw', '/users/u/withdraw']);
    expect(v.witness!.text).toContain('start: 1/u: USDC available 1000; 1/v: USDC available 1000');
  });

  it('a cancel credits the owner of the position, not another user', () => {
    const h = [lendOf('v', 0, 0, 1, '700', 'pv'), cancel(0, 2, 3, 'pv', 200)];
    expect(checkLedger([...h, wd('v', 0, 4, 5, '1000', 202)], two('100', '1000')).linearizable).toBe(true);
    expect(checkLedger([...h, wd('u', 0, 4, 5, '500', 202)], two('100', '1000')).linearizable).toBe(false);
  });
});
