import { describe, expect, it } from 'vitest';
import { faultNames, installFaults, parseFaultFlag, validateFaults } from '../../faults/index.ts';
import { RESOLVERS } from '../../endpoints/resolvers.ts';
import { HOOK_FAULTS, senderFaults } from './index.ts';

// The webhook-sender faults share the endpoint faults' flag and rules: known by name, a valid
// default config, a bad config refused naming the field, never installed as a resolver.
// Their proof (each caught by a named check) is conformance/hooks/testing/proof.test.ts.

describe('webhook-sender fault registry', () => {
  it('knows each by name under --fault, with a valid default config', () => {
    expect(HOOK_FAULTS.size).toBe(10);
    for (const [name, m] of HOOK_FAULTS) {
      expect(m.name).toBe(name);
      expect(faultNames()).toContain(name);
      expect(m.config.safeParse({}).success).toBe(true);
    }
  });

  it('refuses a bad config naming it, and goes to the dispatcher, not the resolvers', () => {
    expect(() => validateFaults([{ name: 'hook-sender-timeout', config: { timeoutMs: 9_000 } }])).toThrow(/hook-sender-timeout: bad config: timeoutMs/);
    const settings = parseFaultFlag('hook-sender-timeout:timeoutMs=800,withdraw-race');
    expect(senderFaults(validateFaults(settings)).map((s) => s.fault.name)).toEqual(['hook-sender-timeout']);
    const r = installFaults(settings, RESOLVERS);
    expect(r['user.withdraw']).not.toBe(RESOLVERS['user.withdraw']);
    expect(r['lend.create']).toBe(RESOLVERS['lend.create']);
  });

  it('shapes: a re-signed body verifies nowhere, a retry gets a new id, the early retry keeps the rest of the schedule', () => {
    const env = { db: undefined as never };
    const payload = JSON.stringify({ id: 'evt_1', type: 'position.created', timestamp: '2026-01-01T00:00:00.000Z', data: { a: 1 } });
    const re = HOOK_FAULTS.get('hook-resigned-body')!.install({}, env).body!(payload, 'evt_1', 1);
    expect(re.sent).toBe(payload);
    expect(re.signed).not.toBe(payload);
    const id = HOOK_FAULTS.get('hook-new-id-per-retry')!.install({}, env).body!;
    expect(id(payload, 'evt_1', 1).eventId).toBe('evt_1');
    const second = id(payload, 'evt_1', 2);
    expect(second.eventId).not.toBe('evt_1');
    expect(JSON.parse(second.sent).id).toBe(second.eventId);
    const early = HOOK_FAULTS.get('hook-early-retry')!;
    expect(early.install(early.config.parse({}), env).retryDelaysMs!([60_000, 300_000])).toEqual([20_000, 300_000]);
    expect(HOOK_FAULTS.get('hook-no-retries')!.install({}, env).retryDelaysMs!([60_000])).toEqual([]);
  });
});
