import { afterEach, describe, expect, it } from 'vitest';
import { arrivalExchange, flatHeaders, payloadOf, startRecordingReceiver } from './recording.ts';

// The one recording receiver (the retry watch's, the delivery checks', detection's): what it
// records, how it answers, the sender hanging up before a slow answer, and where it listens
// (LENDCHECK_RECEIVER_HOST, which gate --receiver-host sets).

afterEach(() => void delete process.env.LENDCHECK_RECEIVER_HOST);

describe('recording receiver', () => {
  it('records the raw bytes, the arrival and the answer; listens where LENDCHECK_RECEIVER_HOST says', async () => {
    process.env.LENDCHECK_RECEIVER_HOST = '127.0.0.2';
    const rx = await startRecordingReceiver({ path: '/lendcheck-hook' });
    try {
      expect(rx.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/lendcheck-hook\/[0-9a-f]{12}$/);
      const before = Date.now();
      const r = await fetch(rx.url, { method: 'POST', body: '{"id": "evt_1"}', headers: { 'x-one': 'a' } });
      expect(r.status).toBe(200);
      const a = rx.got[0]!;
      expect(a.raw.toString()).toBe('{"id": "evt_1"}');
      expect(a.method).toBe('POST');
      expect(a.status).toBe(200);
      expect(a.at).toBeGreaterThanOrEqual(before);
      expect(a.answeredAt).toBeGreaterThanOrEqual(a.at);
      expect(payloadOf(a)).toEqual({ id: 'evt_1' });
      expect(flatHeaders(a)['x-one']).toBe('a');
      expect(arrivalExchange(a, rx.url)).toMatchObject({ method: 'POST', url: rx.url, status: 200, requestBody: '{"id": "evt_1"}' });
    } finally {
      await rx.close();
    }
  });

  it('answers what decide says, and a replaced decide from then on', async () => {
    const rx = await startRecordingReceiver({ path: '/x', host: '127.0.0.1', decide: () => 500 });
    try {
      expect((await fetch(rx.url, { method: 'POST', body: 'one' })).status).toBe(500);
      rx.decide = (a) => (a.raw.toString() === 'slow' ? { status: 202, afterMs: 150 } : 204);
      const t0 = Date.now();
      expect((await fetch(rx.url, { method: 'POST', body: 'slow' })).status).toBe(202);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
      expect((await fetch(rx.url, { method: 'POST', body: 'fast' })).status).toBe(204);
      expect(rx.got.map((a) => a.status)).toEqual([500, 202, 204]);
      expect(rx.got[1]!.answeredAt! - rx.got[1]!.at).toBeGreaterThanOrEqual(140);
      expect(await rx.waitFor((got) => got.length === 3, 1_000)).toBe(true);
      expect(await rx.waitFor((got) => got.length === 4, 100)).toBe(false);
    } finally {
      await rx.close();
    }
  });

  it('notes a sender that hangs up before a slow answer', async () => {
    const rx = await startRecordingReceiver({ path: '/x', decide: () => ({ status: 200, afterMs: 1_000 }) });
    try {
      await fetch(rx.url, { method: 'POST', body: '{}', signal: AbortSignal.timeout(200) }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 300));
      expect(rx.got[0]!.gaveUpAt! - rx.got[0]!.at).toBeLessThan(500);
      expect(rx.got[0]!.answeredAt).toBeUndefined();
      expect(rx.pending()).toBe(0);
      expect(arrivalExchange(rx.got[0]!, rx.url).status).toBe(0);
    } finally {
      await rx.close();
    }
  });

  it('does not take its own close for the sender hanging up on a delivery it still holds', async () => {
    const rx = await startRecordingReceiver({ path: '/x', host: '127.0.0.1', decide: () => ({ status: 200, afterMs: 5_000 }) });
    const sent = fetch(rx.url, { method: 'POST', body: '{}' }).catch(() => undefined);
    expect(await rx.waitFor((got) => got.length === 1, 2_000)).toBe(true);
    await rx.close();
    await sent;
    await new Promise((r) => setTimeout(r, 100));
    expect(rx.got[0]!.gaveUpAt).toBeUndefined();
    expect(rx.got[0]!.answeredAt).toBeUndefined();
  });

  it('keeps deliveries to any other path out of what it judges: another subscription that once named this port', async () => {
    const rx = await startRecordingReceiver({ path: '/lendcheck-hook', host: '127.0.0.1' });
    try {
      const port = new URL(rx.url).port;
      // An earlier run's receiver path on the same port (ports are reused once a receiver closes).
      expect((await fetch(`http://127.0.0.1:${port}/lendcheck-hook/0123456789ab`, { method: 'POST', body: '{"id": "evt_other"}' })).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${port}/lendcheck-hook`, { method: 'POST', body: '{}' })).status).toBe(404);
      expect(rx.got).toEqual([]);
      expect(rx.strays).toBe(2);
      expect((await fetch(`${rx.url}?x=1`, { method: 'POST', body: '{"id": "evt_1"}' })).status).toBe(200);
      expect(rx.got.map((a) => payloadOf(a))).toEqual([{ id: 'evt_1' }]);
    } finally {
      await rx.close();
    }
  });

  it('names an advertised host in its URL while listening on another', async () => {
    const rx = await startRecordingReceiver({ path: '/lendcheck-detect', host: '127.0.0.1', advertise: 'host.example' });
    try {
      expect(rx.url).toMatch(/^http:\/\/host\.example:\d+\/lendcheck-detect\/[0-9a-f]{12}$/);
      const u = new URL(rx.url);
      expect((await fetch(`http://127.0.0.1:${u.port}${u.pathname}`, { method: 'POST', body: '' })).status).toBe(200);
    } finally {
      await rx.close();
    }
  });
});
