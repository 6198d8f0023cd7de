import { describe, expect, it } from 'vitest';
import { HOOK_FAULTS } from '../../../sandbox/webhooks/faults/index.ts';
import { AUTHZ_FAULTS, CAUGHT_BY, DELIVERY_CHECKS, RETRY_FAULTS, runDeliveryChecks, runRetrySchedule } from './proof.ts';

// Proof that the no-controls delivery checks catch each webhook-sender bug of the sandbox
// (sandbox/webhooks/faults/) at real time with its controls off, naming the event, the user
// and the partner, and that the clean sandbox passes every one of them. The runs are mostly
// waits for deliveries, so they run side by side.

describe('the delivery checks against a sandbox without controls, at real time', () => {
  it('have a catching check for every webhook-sender fault but the retry ones (proven by the retry watch) and the subscription-route ones (the authorization matrix)', () => {
    expect([...Object.keys(CAUGHT_BY), ...RETRY_FAULTS, ...AUTHZ_FAULTS].sort()).toEqual([...HOOK_FAULTS.keys()].sort());
  });

  it.concurrent('clean: every delivery check passes, each on deliveries it saw', async () => {
    const r = await runDeliveryChecks();
    for (const id of DELIVERY_CHECKS) {
      const c = r.checks.find((x) => x.id === id)!;
      expect(c.status, `${id}: ${c.message ?? ''}`).toBe('passed');
    }
    expect(r.checks.find((c) => c.id === 'hooks.every-delivery')!.notes.join('\n')).toMatch(/event types seen: .*position\.created.*position\.matched/);
    // Isolation is watched for every type partner A's receiver got, withdrawal.completed about the userId both partners use included.
    expect(r.checks.find((c) => c.id === 'hooks.partner-isolation')!.notes.join('\n')).toMatch(/event types kept from partner B.*position\.created.*position\.matched.*withdrawal\.completed/);
  }, 60_000);

  for (const [fault, { check, names }] of Object.entries(CAUGHT_BY)) {
    it.concurrent(`${fault}: ${check} fails, naming the event and the broken promise; the other checks are not misled`, async () => {
      const r = await runDeliveryChecks([{ name: fault }]);
      const c = r.checks.find((x) => x.id === check)!;
      expect(c.status, c.message ?? '').toBe('failed');
      expect(c.message).toMatch(names);
      // One bug, one failing promise: the fault is named by its own check alone.
      const others = r.checks.filter((x) => x.id !== check && x.status === 'failed');
      expect(others.map((x) => `${x.id}: ${x.message ?? ''}`)).toEqual([]);
    }, 60_000);
  }
});

describe('hooks.retry-schedule against a sandbox with a test clock', () => {
  it.concurrent('clean: passes', async () => {
    const c = (await runRetrySchedule()).checks.find((x) => x.id === 'hooks.retry-schedule')!;
    expect(c.status, c.message ?? '').toBe('passed');
  }, 60_000);

  // Each retry fault: an early retry, none at all, and a retry under a new event id (receivers deduplicate by id).
  const names: Record<string, RegExp> = { 'hook-early-retry': /retry 1 waits 1 min/, 'hook-no-retries': /followed by retry 1/, 'hook-new-id-per-retry': /every attempt of an event carries its id.*attempt 2: id /s };
  for (const fault of RETRY_FAULTS) {
    it.concurrent(`${fault}: fails, naming the broken promise`, async () => {
      const c = (await runRetrySchedule([{ name: fault }])).checks.find((x) => x.id === 'hooks.retry-schedule')!;
      expect(c.status, c.message ?? '').toBe('failed');
      expect(c.message).toMatch(names[fault]!);
    }, 60_000);
  }
});
