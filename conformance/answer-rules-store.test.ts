import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../contract/index.ts';
import { AnswerRules } from './answer-rules.ts';

// What the per-response rules keep of the answers they judge, so a check may judge an answer the
// run already got instead of asking again (issue 48): the first of each endpoint per query asked,
// and the latest per URL; never an error answer, nor another method on the endpoint's path.

const answer = (url: string, status: number, json: unknown, method = 'GET') => ({
  status,
  headers: { 'content-type': 'application/json' },
  json,
  text: JSON.stringify(json),
  exchange: { method, url, status, requestHeaders: {}, responseHeaders: {}, durationMs: 1, endpoint: 'position.get' },
});

const pos = (status: string) => ({ positionId: 'pos_1', status, type: 'lend', userId: 'u1', asset: 'USDC', amount: '100', rate: 0.05, maturity: '2026-12-31T00:00:00Z', createdAt: '2026-11-01T00:00:00Z' });

describe('answers kept by the per-response rules', () => {
  it('keeps the first success answer and the latest per URL, by the check that got each', () => {
    const a = new AnswerRules(defaultProfile);
    a.judge(answer('http://t/v1/positions/pos_1', 200, pos('pending')), 'first.check');
    a.judge(answer('http://t/v1/positions/pos_1', 404, { error: { code: 'position_not_found', message: 'no' } }), 'error.check');
    a.judge(answer('http://t/v1/positions/pos_1', 200, pos('active')), 'second.check');
    a.judge(answer('http://t/v1/positions/pos_1', 200, pos('cancelled'), 'PATCH'), 'patch.check');
    expect(a.firstSuccess('position.get')?.check).toBe('first.check');
    const last = a.lastSuccess('position.get', (x) => x.url.endsWith('/positions/pos_1'));
    expect(last?.check).toBe('second.check');
    expect((last?.reply.json as { status: string }).status).toBe('active');
    expect(a.lastSuccess('position.get', (x) => x.url.endsWith('/positions/pos_2'))).toBeUndefined();
  });
});
