import { afterEach, describe, expect, it } from 'vitest';
import { startHookReceiver } from './receiver.ts';

// The delivery checks' receiver: what it records, the sender hanging up before a slow answer,
// and where it listens (LENDCHECK_RECEIVER_HOST, which gate --receiver-host sets).

afterEach(() => void delete process.env.LENDCHECK_RECEIVER_HOST);

describe('hook receiver', () => {
  it('records the raw bytes and the answer; listens where LENDCHECK_RECEIVER_HOST says', async () => {
    process.env.LENDCHECK_RECEIVER_HOST = '127.0.0.2';
    const rx = await startHookReceiver('test');
    try {
      expect(rx.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+\//);
      const r = await fetch(rx.url, { method: 'POST', body: '{"id": "evt_1"}' });
      expect(r.status).toBe(200);
      expect(rx.got[0]!.raw.toString()).toBe('{"id": "evt_1"}');
      expect(rx.got[0]!.answeredAt).toBeDefined();
    } finally {
      await rx.close();
    }
  });

  it('notes a sender that hangs up before a slow answer', async () => {
    const rx = await startHookReceiver('slow', { answerAfterMs: 1_000 });
    try {
      await fetch(rx.url, { method: 'POST', body: '{}', signal: AbortSignal.timeout(200) }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 300));
      expect(rx.got[0]!.gaveUpAt! - rx.got[0]!.at).toBeLessThan(500);
      expect(rx.got[0]!.answeredAt).toBeUndefined();
      expect(rx.pending()).toBe(0);
    } finally {
      await rx.close();
    }
  });
});
