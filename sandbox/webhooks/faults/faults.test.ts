import { describe, expect, it } from 'vitest';
import { faultNames, installFaults, parseFaultFlag, validateFaults } from '../../faults/index.ts';
import { RESOLVERS } from '../../endpoints/resolvers.ts';
import { signWebhookHeaders, verifyWebhook } from '../../../signing/signature.ts';
import type { Sender } from '../sender.ts';
import { wireFaults, type Exchange } from '../toxic-door.ts';
import { HOOK_FAULTS, senderFaults, wireSettings } from './index.ts';
import type { HookFault } from './types.ts';

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
    expect(wireSettings(validateFaults(settings)).map((s) => s.fault.name)).toEqual(['hook-sender-timeout']);
    expect(senderFaults(validateFaults(parseFaultFlag('hook-no-retries,hook-sender-timeout'))).map((s) => s.fault.name)).toEqual(['hook-no-retries']);
    const r = installFaults(settings, RESOLVERS);
    expect(r['user.withdraw']).not.toBe(RESOLVERS['user.withdraw']);
    expect(r['lend.create']).toBe(RESOLVERS['lend.create']);
  });

  it('shapes: a re-signed body verifies nowhere, a retry gets a new id, the early retry keeps the rest of the schedule', async () => {
    const env = { db: undefined as never };
    const secret = 'whsec_shapes';
    const payload = JSON.stringify({ id: 'evt_1', type: 'position.created', timestamp: '2026-01-01T00:00:00.000Z', data: { a: 1 } });
    const seen: Array<{ body: string; headers: Record<string, string> }> = [];
    const send: Sender = async (_url, body, headers) => (seen.push({ body, headers }), { status: 200, response: 'ok' });
    const now = Math.floor(Date.now() / 1000);
    const x = (attempt: number): Exchange => {
      const sign = (body: string, id: string) => ({ 'content-type': 'application/json', ...signWebhookHeaders(body, secret, { timestamp: now, id }) });
      return { url: 'http://rx.test/hook', body: payload, headers: sign(payload, 'evt_1'), signal: new AbortController().signal, attempt, sign };
    };
    const through = (name: string, config?: Record<string, unknown>) => wireFaults(wireSettings(validateFaults([{ name, config }])))!;
    const verifies = (s: { body: string; headers: Record<string, string> }) => verifyWebhook(Buffer.from(s.body), s.headers, secret, { now }).ok;

    const re = await through('hook-resigned-body')(send, x(1));
    expect(re.result).toEqual({ status: 200, response: 'ok' });
    expect(seen.at(-1)!.body).toBe(payload);
    expect(verifies(seen.at(-1)!)).toBe(false);
    expect(re.headers['x-service-signature']).toBe(seen.at(-1)!.headers['x-service-signature']);

    const id = through('hook-new-id-per-retry');
    await id(send, x(1));
    expect(JSON.parse(seen.at(-1)!.body).id).toBe('evt_1');
    expect(verifies(seen.at(-1)!)).toBe(true);
    await id(send, x(2));
    const second = JSON.parse(seen.at(-1)!.body) as { id: string };
    expect(second.id).not.toBe('evt_1');
    expect(verifies(seen.at(-1)!)).toBe(true);

    const slow: Sender = (_u, _b, _h, signal) => new Promise((r) => signal.addEventListener('abort', () => r({ status: null, error: 'aborted: dispatcher stopping' })));
    const timedOut = await through('hook-sender-timeout', { timeoutMs: 50 })(slow, x(1));
    expect(timedOut.result).toEqual({ status: null, error: 'no answer within 50 ms' });

    const early = HOOK_FAULTS.get('hook-early-retry') as HookFault;
    expect(early.install(early.config.parse({}), env).retryDelaysMs!([60_000, 300_000])).toEqual([20_000, 300_000]);
    expect((HOOK_FAULTS.get('hook-no-retries') as HookFault).install({}, env).retryDelaysMs!([60_000])).toEqual([]);
  });
});
