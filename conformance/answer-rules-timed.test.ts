import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../contract/index.ts';
import { AnswerRules } from './answer-rules.ts';

// The timed answers limits.headers-decrease judges instead of reads of its own (issue 48): four
// success answers of one key to one path, each asked after the one before was read. A storm's
// overlapping answers, another key's, or a run slower than the span asked for are never offered.

const pos = { positionId: 'pos_1', status: 'pending', type: 'lend', userId: 'u1', asset: 'USDC', amount: '100', rate: 0.05, maturity: '2026-12-31T00:00:00Z', createdAt: '2026-11-01T00:00:00Z' };

const answer = (sentAt: number, receivedAt: number, credential = 'LENDCHECK_API_KEY') => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  json: pos,
  text: JSON.stringify(pos),
  exchange: { method: 'GET', url: 'http://t/v1/positions/pos_1', status: 200, requestHeaders: {}, responseHeaders: {}, durationMs: receivedAt - sentAt, endpoint: 'position.get', credential },
  sentAt,
  receivedAt,
});

describe('sequential runs kept by the per-response rules', () => {
  it('offers four answers asked one after another, within the span', () => {
    const a = new AnswerRules(defaultProfile);
    for (let i = 0; i < 4; i++) a.judge(answer(i * 10, i * 10 + 5), 'walk.check');
    const run = a.sequentialRun('LENDCHECK_API_KEY', 4, 100);
    expect(run?.map((x) => x.sentAt)).toEqual([0, 10, 20, 30]);
    expect(a.sequentialRun('LENDCHECK_API_KEY', 4, 20)).toBeUndefined();
    expect(a.sequentialRun('LENDCHECK_API_KEY_2', 4, 100)).toBeUndefined();
  });

  it('never offers overlapping answers (a storm)', () => {
    const a = new AnswerRules(defaultProfile);
    for (let i = 0; i < 4; i++) a.judge(answer(i, 10 + i), 'storm.check');
    expect(a.sequentialRun('LENDCHECK_API_KEY', 4, 1_000)).toBeUndefined();
  });
});
