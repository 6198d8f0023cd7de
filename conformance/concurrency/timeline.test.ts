import { describe, expect, it } from 'vitest';
import type { Exchanges } from './exchanges.ts';
import { timeline } from './timeline.ts';

// The timeline a failure shows: one line per operation in invoke order, its span as a bar on
// a common scale, the request's money and the answer.

const h: Exchanges = [
  { id: 1, client: 1, kind: 'user.withdraw', invoke: 100.5, complete: 140, request: { method: 'POST', path: '/users/u/withdraw', ids: { userId: 'u' }, body: { asset: 'USDC', amount: '600000' }, partner: 1 }, response: { status: 201, json: {} } },
  { id: 0, client: 0, kind: 'user.withdraw', invoke: 100, complete: 120, request: { method: 'POST', path: '/users/u/withdraw', ids: { userId: 'u' }, body: { asset: 'USDC', amount: '600000' }, partner: 1 }, response: { status: 201, json: {} } },
  { id: 2, client: 2, kind: 'lend.create', invoke: 110, request: { method: 'POST', path: '/lend', ids: {}, body: { amount: '5', asset: 'USDC' }, partner: 2 } },
  { id: 3, client: 3, kind: 'position.cancel', invoke: 130, complete: 140, request: { method: 'POST', path: '/positions/p1/cancel?x=1', ids: { positionId: 'p1' }, partner: 1 }, response: { status: 400, json: { error: { code: 'invalid_request' } } } },
];

describe('timeline', () => {
  it('orders by invoke time, draws overlapping spans and names money and answers', () => {
    const lines = timeline(h).split('\n');
    expect(lines.map((l) => l.split(' ')[0])).toEqual(['#0', '#1', '#2', '#3']);
    expect(lines[0]).toMatch(/^#0 \|█+ +\| 0\.0–20\.0 ms +user\.withdraw +POST \/users\/u\/withdraw \{amount=600000 asset=USDC\} → 201$/);
    expect(lines[1]).toContain('0.5–40.0 ms');
    expect(lines[2]).toMatch(/10\.0–\? ms +lend\.create .*\(partner 2\) → no answer$/);
    expect(lines[3]).toMatch(/POST \/positions\/p1\/cancel → 400 invalid_request$/);
    // #1 spans the whole storm, so its bar is the widest.
    const bar = (l: string) => (l.match(/█+/) ?? [''])[0].length;
    expect(bar(lines[1]!)).toBeGreaterThan(bar(lines[0]!));
  });

  it('says so when empty and cuts long histories', () => {
    expect(timeline([])).toBe('(empty history)');
    const many: Exchanges = Array.from({ length: 45 }, (_, i) => ({ id: i, client: i, kind: 'position.get', invoke: i, complete: i + 1, request: { method: 'GET', path: '/x', ids: { positionId: 'x' }, partner: 1 as const } }));
    expect(timeline(many).split('\n').at(-1)).toBe('… and 5 more operations');
  });
});
