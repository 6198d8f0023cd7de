import { describe, expect, it } from 'vitest';
import { defaultProfile, routeOfRequest } from '../../contract/index.ts';
import { runAuthz } from './testing/proof.ts';

// A's resting lend may match while B's requests are under way: a counterparty, or the service's
// own liquidity on its clock (a gate at 3600× saw it). That move is the market's, never a cancel,
// repay or PATCH of B's, so the matrix notes it and compares later cells against the matched
// state; a target that lets B change A's position still fails.

const CHANGES = new Set(['position.cancel', 'position.repay', 'position.patch']);

async function run(faults: Array<{ name: string }> = []) {
  let changed = false;
  const r = await runAuthz(faults, defaultProfile, defaultProfile, async (req, next) => {
    const id = routeOfRequest(defaultProfile, req)?.id;
    const res = await next(req);
    if (id && CHANGES.has(id)) changed = true;
    // After B's first change call, A's position reads as matched (as if the market had filled it meanwhile).
    if (!changed || id !== 'position.get' || res.status !== 200) return res;
    const j = (await res.json()) as Record<string, unknown>;
    const matched = j.status === 'pending' ? { ...j, status: 'active', matchedAt: new Date().toISOString() } : j;
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(matched), { status: 200, headers });
  });
  return r.checks.find((c) => c.id === 'authz.matrix')!;
}

describe('authz.matrix when A\'s resting lend matches during B\'s requests', () => {
  it('passes a correct target, noting the market\'s move', async () => {
    const m = await run();
    expect(m.status, m.message ?? '').toBe('passed');
    expect(m.notes.join('\n')).toMatch(/matched \(pending → active\) around .*the market's move, not B's/);
  }, 60_000);

  it('still fails a target that lets B cancel A\'s position (owner-unchecked-cancel)', async () => {
    const m = await run([{ name: 'owner-unchecked-cancel' }]);
    expect(m.status).toBe('failed');
  }, 60_000);
});
