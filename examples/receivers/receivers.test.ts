import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCertify } from '../../chaos/certify/run.ts';
import type { ExampleOptions, Running } from './serve.ts';

// The sample is certified and every broken receiver is rejected with the check that names
// its mistake. All run at once: the 6 s receiver sets the pace (each probe waits 5 s).
const secret = 'whsec_examples_test';
const file = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const running: Running[] = [];
afterAll(() => Promise.all(running.map((r) => r.close())));

const BROKEN: Record<string, string[]> = {
  'reserialized-json': ['signature.reserialized', 'delivery.raw-bytes'],
  'accepts-missing-signature': ['signature.missing'],
  'loose-equals': ['source.constant-time-compare'],
  'duplicate-409': ['idempotency.sequential', 'idempotency.concurrent'],
  'slow-6s': ['delivery.position.created', 'delivery.position.matched', 'delivery.position.matured', 'delivery.position.liquidated', 'delivery.position.rolled', 'delivery.withdrawal.completed', 'burst'],
  'accepts-stale-timestamp': ['signature.stale-timestamp', 'signature.future-timestamp'],
  'unknown-type-500': ['delivery.position.liquidated', 'delivery.position.rolled', 'delivery.withdrawal.completed', 'delivery.unknown-type', 'burst'],
  'rejects-unknown-type': ['delivery.unknown-type'],
  'bad-signature-200': ['signature.invalid', 'signature.tampered-body', 'signature.wrong-secret', 'signature.reserialized', 'signature.stale-timestamp', 'signature.future-timestamp'],
};

async function certify(path: string) {
  const mod = (await import(path)) as { start(o: ExampleOptions): Promise<Running> };
  const r = await mod.start({ secret, port: 0 });
  running.push(r);
  return runCertify({ url: r.url, secret, burst: 20, sources: [path] });
}

describe('example receivers against the certifier', () => {
  it('certifies the sample and rejects each broken receiver with the check naming its mistake', async () => {
    const names = Object.keys(BROKEN);
    const [sample, ...broken] = await Promise.all([certify(file('./sample.ts')), ...names.map((n) => certify(file(`./broken/${n}.ts`)))]);

    expect(sample.checks.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(sample.status).toBe('passed');
    expect(sample.figures.certified).toBe('yes');
    expect(sample.checks.length).toBeGreaterThanOrEqual(17);

    names.forEach((name, i) => {
      const r = broken[i];
      const failedIds = r.checks.filter((c) => c.status === 'failed').map((c) => c.id);
      expect({ name, status: r.status }).toEqual({ name, status: 'failed' });
      expect({ name, failed: failedIds.filter((id) => BROKEN[name].includes(id)).sort() }).toEqual({ name, failed: [...BROKEN[name]].sort() });
      // Only the slow receiver fails beyond its own mistake (it misses every deadline).
      if (name !== 'slow-6s') expect({ name, failed: failedIds.sort() }).toEqual({ name, failed: [...BROKEN[name]].sort() });
      for (const c of r.checks.filter((x) => x.status === 'failed')) expect(c.message).toMatch(/^(?:[^\n]+: )?expected .+ \/ received .+/s);
    });
    // The unknown-type probe says why a refusal matters, not only that it happened.
    const unknown = broken[names.indexOf('rejects-unknown-type')].checks.find((c) => c.id === 'delivery.unknown-type');
    expect(unknown?.message).toMatch(/received 500 after \d+ ms; .*retried for 26 h 36 min .*lost/s);
  });
});
