// The key pool the HTTP benchmarks give the sandbox (Scale keys of one partner, so every key
// sees the seeded positions) and rotate over, so no tier caps a run.

export const BENCH_KEY = 'ck_test_partner_a_scale';
/** A Starter key the sandbox benchmark exhausts during seeding, for its 429 endpoint. */
export const EXHAUSTED_KEY = 'ck_test_bench_exhausted';

export function poolKeys(n: number): Array<{ key: string; partnerId: string; tier: string }> {
  const keys = Array.from({ length: n }, (_, i) => ({ key: `ck_test_bench_k${i}`, partnerId: 'partner_a', tier: 'scale' }));
  return [{ key: BENCH_KEY, partnerId: 'partner_a', tier: 'scale' }, { key: EXHAUSTED_KEY, partnerId: 'partner_a', tier: 'starter' }, ...keys];
}
