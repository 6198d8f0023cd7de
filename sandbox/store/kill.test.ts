import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSandbox } from '../testing/spawn.ts';
import { KEY_A } from '../testing/helpers.ts';
import { setTimeout as sleep } from 'node:timers/promises';

// Durability: SIGKILL the `lendcheck sandbox` process in the middle of a write load,
// start it again on the same file, and find every write it acknowledged.

const dir = mkdtempSync(join(tmpdir(), 'lendcheck-kill-'));
const dbPath = join(dir, 'sandbox.db');
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const startChild = () => spawnSandbox(['--port', '0', '--db', dbPath, '--no-rate-limits', '--no-liquidity'], { track: children });

const post = (url: string, body: unknown) =>
  fetch(`${url}/lend`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('sandbox durability', () => {
  it('finds every acknowledged write after SIGKILL during a write load and a restart', async () => {
    const acked = new Map<string, string>();
    let sent = 0;
    // One kill in the middle of a write load. A kill that lands while no request is cut off
    // (each of the eight had its answer written) tests nothing torn: the drill then kills again,
    // on the same file, up to three times; every write any run acknowledged must survive.
    const killOnce = async () => {
      const first = await startChild();
      const before = { sent, acked: acked.size };
      let stop = false;
      const worker = async () => {
        while (!stop) {
          const amount = `${1 + (sent++ % 50)}.${String(sent).padStart(6, '0').slice(-6)}`;
          try {
            const r = await post(first.url, { userId: 'kill-user', asset: 'USDC', amount, rate: 0.2, maturity: '180d' });
            if (r.status === 201) {
              const b = (await r.json()) as { positionId: string; amount: string };
              acked.set(b.positionId, b.amount); // as the sandbox acknowledged it (normalised, "1.50" → "1.5")
            }
            else await r.text();
          } catch {
            return; // the process is gone
          }
        }
      };
      const workers = Array.from({ length: 8 }, worker);
      // Kill once a few hundred writes are in, while requests are still in flight.
      const deadline = Date.now() + 8000;
      while (acked.size - before.acked < 300 && Date.now() < deadline) await sleep(20);
      first.child.kill('SIGKILL');
      stop = true;
      await Promise.all(workers);
      await first.exited;
      return { sent: sent - before.sent, acked: acked.size - before.acked };
    };
    let cut = false;
    for (let attempt = 0; attempt < 3 && !cut; attempt++) {
      const run = await killOnce();
      expect(run.acked).toBeGreaterThan(0);
      cut = run.sent > run.acked;
    }
    expect(cut, 'some writes were in flight when the process died (in one of three kills)').toBe(true);

    const second = await startChild();
    try {
      let missing = 0;
      for (const [id, amount] of acked) {
        const r = await fetch(`${second.url}/positions/${id}`, { headers: { authorization: `Bearer ${KEY_A}` } });
        const body = (await r.json()) as { amount?: string };
        if (r.status !== 200 || body.amount !== amount) missing++;
      }
      expect(missing, `of ${acked.size} acknowledged writes`).toBe(0);
      // The locked funds account for every acknowledged order (and maybe a few unacknowledged ones).
      const bal = await fetch(`${second.url}/sandbox/users/kill-user/balances`, { headers: { authorization: `Bearer ${KEY_A}` } });
      const usdc = ((await bal.json()) as { balances: Array<{ asset: string; locked: string; available: string }> }).balances.find((b) => b.asset === 'USDC')!;
      const ackedSum = [...acked.values()].reduce((s, a) => s + Math.round(Number(a) * 1e6), 0);
      expect(Math.round(Number(usdc.locked) * 1e6)).toBeGreaterThanOrEqual(ackedSum);
      expect(Math.round((Number(usdc.locked) + Number(usdc.available)) * 1e6)).toBe(100_000 * 1e6);
    } finally {
      second.child.kill('SIGTERM');
    }
    expect(await second.exited, 'clean exit on SIGTERM').toBe(0);
  }, 120_000);
});
