import { describe, expect, it } from 'vitest';
import { defaultProfile, parseProfile } from '../contract/index.ts';
import { signWebhook } from '../signing/signature.ts';
import { startReceiver } from './receiver.ts';
import { senderWindowSeconds } from './sender-window.ts';

// A sender that keeps its first attempt's timestamp on its retries is not failed as "stale" where
// lendcheck judges a sender (part 6 verifies the body's signature with the secret; the age of a
// timestamp is not the spec's). Only past the retry schedule and an hour is a timestamp refused.

const secret = 'whsec_sender_window_test';
const body = (id: string) => JSON.stringify({ id, type: 'position.created', timestamp: new Date().toISOString(), data: { positionId: 'pos_1' } });
const now = () => Math.floor(Date.now() / 1000);

describe('the replay window a sender is judged under', () => {
  it('is the retry schedule (26 h 36 min) and an hour, or the profile\'s if longer', () => {
    expect(senderWindowSeconds(defaultProfile)).toBe(95_760 + 3_600);
    expect(senderWindowSeconds(parseProfile({ signature: { toleranceSeconds: 200_000 } }))).toBe(200_000);
  });

  it('lets the chaos receiver take a retry signed at its first attempt 6 minutes ago, and refuse one three days old', async () => {
    const rx = await startReceiver({ secret });
    try {
      const send = (id: string, t: number) => {
        const b = body(id);
        return fetch(rx.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': signWebhook(b, secret, { timestamp: t }) }, body: b });
      };
      expect((await send('evt_kept', now() - 360)).status).toBe(200);
      expect((await send('evt_old', now() - 3 * 86_400)).status).toBe(401);
      expect(rx.store.attempts().map((r) => [r.eventId, r.sigOk, r.sigReason])).toEqual([
        ['evt_kept', true, null],
        ['evt_old', false, 'stale'],
      ]);
    } finally {
      await rx.close();
    }
  });
});
