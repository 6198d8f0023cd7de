import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { registerChaos } from '../../cli/commands/chaos.ts';
import { runInProcess } from '../../cli/testing/run-in-process.ts';
import { parsePlan } from '../plan.ts';
import { startReceiver } from '../receiver.ts';
import { AttemptStore } from '../store.ts';
import { envelope, sendWithRetries } from '../testing/fake-sender.ts';
import { validateAttempts } from './validate.ts';

// The verdict rule: a validation whose schedule was not observed to its end is not PASS.
// A sender that stops after four retries, watched until 1.5 s after its last attempt at time
// scale 3600: the fifth retry (24 h / 3600 = 24 s later) was not yet due, so nothing can be
// said about it. That is INCOMPLETE (exit 3), naming when the retry was due; not PASS (exit 0).
const dir = mkdtempSync(join(tmpdir(), 'lendcheck-incomplete-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const secret = 'whsec_incomplete_test_secret';
const failAll = parsePlan({ name: 'fail all', rules: [{ attempts: 'all', fault: 'status', config: { status: 503 } }] });

describe('chaos validate on a schedule not observed to its end', () => {
  it('a sender stopped after four retries, observed 1.5 s past its last attempt at scale 3600, is INCOMPLETE and exits 3', async () => {
    const db = join(dir, 'four.db');
    const rx = await startReceiver({ secret, db, plan: failAll, timeScale: 3600 });
    const ev = envelope('position.matched', { positionId: 'pos_four', userId: 'u1', type: 'lend', asset: 'USDC', amount: '100.00', rate: 0.05, maturity: '2027-01-01T00:00:00.000Z', status: 'active' });
    const sent = await sendWithRetries(ev, { url: rx.url, secret, timeScale: 3600, maxRetries: 4 });
    expect(sent).toHaveLength(5);
    await new Promise((r) => setTimeout(r, 1_500));
    await rx.close();

    const store = new AttemptStore(db);
    const r = await validateAttempts(store.attempts(), store.sessions(), { tolerance: { pct: 2, minMs: 1000 } });
    const lastArrival = Math.max(...store.attempts().map((a) => a.arrivalMs));
    store.close();
    expect(r.checks.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(r.status).toBe('incomplete');
    expect(r.figures.eventsPending).toBe(1);
    const due = Date.parse(String(r.figures.nextAttemptDueAt));
    // Due about 24 s after the fourth retry; never before the observation ended.
    expect(due - lastArrival).toBeGreaterThan(20_000);
    expect(r.timeline![0]).toMatchObject({ verdict: 'pending', message: expect.stringContaining(`retry 5 was due at ${r.figures.nextAttemptDueAt}`) });
    // Retries 1-4 were seen within the tolerance; the fifth was not: the delays are not reported passed.
    const delays = r.checks.find((c) => c.id === 'schedule.delays')!;
    expect(delays.status).toBe('skipped');
    expect(delays.message).toMatch(/retries 5 were not observed in this run .*only retries 1, 2, 3, 4 were judged/);
    expect(delays.notes.join('\n')).toMatch(/retry 1: expected 17 ms, observed \d+ ms/);
    expect(r.checks.find((c) => c.id === 'schedule.retries-made')).toMatchObject({ status: 'skipped', message: expect.stringMatching(/observation ended before the schedule did: 1 event\(s\) .* retry 5, was due at \d{4}-/) });

    const cli = await runInProcess(registerChaos, ['chaos', 'validate', '--db', db, '--tolerance', '2%,1000ms', '--report-dir', join(dir, 'out')]);
    expect(cli.out).toMatch(/^INCOMPLETE chaos/);
    expect(cli.code).toBe(3);
    const json = JSON.parse(readFileSync(join(dir, 'out', 'chaos-validate.json'), 'utf8')) as { status: string; timeline: Array<{ verdict: string }> };
    expect(json.status).toBe('incomplete');
    expect(json.timeline[0].verdict).toBe('pending');
  });
});
