import { describe, expect, it } from 'vitest';
import { startSandboxServer } from '../../sandbox/server.ts';
import { defaultPlugins } from '../../sandbox/plugins.ts';
import type { SandboxOptions } from '../../sandbox/app.ts';
import { EMBEDDED_TOLERANCE, runChaosSchedule } from './run.ts';
import { certainFailure, NO_DELIVERY_MS } from './fail-fast.ts';
import type { AttemptRow } from '../store.ts';

// An active schedule run whose failure is certain stops then, with the reason, instead of
// waiting out the schedule (57 s at scale 3600; 26.6 h at real time): deliveries that never
// verify end it at the first ones, deliveries that never come end it 30 s after the orders.

const row = (over: Partial<AttemptRow>): AttemptRow => ({
  seq: 1, session: 1, eventId: 'evt_1', eventType: 'position.created', attempt: 1, arrivalMs: 1_000, endedMs: 1_005, bodySha256: 'x', contentKey: null,
  subject: 'pos_1', bodyBytes: 10, sigOk: false, sigReason: 'mismatch', fault: null, response: null, status: 500, ...over,
});

async function scheduleAgainst(opts: SandboxOptions) {
  const sb = await startSandboxServer({ port: 0, timeScale: 3600, validateResponses: false, ...opts });
  const t0 = Date.now();
  try {
    const r = await runChaosSchedule({ baseUrl: sb.url, apiKey: sb.keys.find((k) => k.tier === 'scale')!.key, tolerance: EMBEDDED_TOLERANCE });
    return { r, ms: Date.now() - t0 };
  } finally {
    await sb.close();
  }
}

describe('chaos schedule fails fast', () => {
  it('is certain only when nothing verified or nothing came', () => {
    expect(certainFailure([], 0, NO_DELIVERY_MS)).toBeUndefined();
    expect(certainFailure([], 0, NO_DELIVERY_MS + 1, 't-v1-hmac-sha256')).toMatch(/no delivery arrived within 30 s/);
    // One bad delivery: a short look for more first; then the reason, naming the event.
    expect(certainFailure([row({})], 0, 1_500, 't-v1-hmac-sha256')).toBeUndefined();
    expect(certainFailure([row({})], 0, 3_001, 't-v1-hmac-sha256')).toMatch(/every delivery so far \(1, the first event evt_1 position\.created\) fails signature verification .*: mismatch/);
    expect(certainFailure([row({}), row({ sigOk: true })], 0, 60_000, 't-v1-hmac-sha256')).toBeUndefined();
  });

  it.concurrent('deliveries signed over re-serialized bytes end the run within seconds, with the reason', async () => {
    const { r, ms } = await scheduleAgainst({ faults: [{ name: 'hook-resigned-body' }] });
    expect(r.status).toBe('failed');
    expect(r.checks.find((c) => c.id === 'schedule.fail-fast')!.message).toMatch(/fails signature verification over its raw body .*mismatch/);
    expect(ms).toBeLessThan(30_000);
  }, 60_000);

  it.concurrent('no delivery at all ends the run 30 s after the orders, not at the end of the schedule', async () => {
    const { r, ms } = await scheduleAgainst({ plugins: defaultPlugins({ webhooks: false }) });
    expect(r.status).toBe('failed');
    expect(r.checks.find((c) => c.id === 'schedule.fail-fast')!.message).toMatch(/no delivery arrived within 30 s/);
    expect(ms).toBeLessThan(40_000);
  }, 90_000);
});
