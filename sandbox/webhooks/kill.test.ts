import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { spawnSandbox } from '../testing/spawn.ts';
import { caller } from '../testing/helpers.ts';
import { startReceiver } from './testing/testkit.ts';
import { setTimeout as sleep } from 'node:timers/promises';

// Webhook durability: `lendcheck sandbox` is SIGKILLed while deliveries are pending (some
// failed and waiting for a retry, some not yet sent), then started again on the same file.
// Every event must still reach the receiver, with its original id.

const dir = mkdtempSync(join(tmpdir(), 'lendcheck-webhook-kill-'));
const dbPath = join(dir, 'sandbox.db');
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const startChild = () => spawnSandbox(['--port', '0', '--db', dbPath, '--time-scale', '3600', '--no-liquidity'], { track: children });

describe('webhook delivery across SIGKILL', () => {
  it('delivers every event after the sandbox is killed with deliveries pending and restarted', async () => {
    let accepting = false;
    const okIds = new Set<string>();
    const rx = await startReceiver((r) => {
      if (!accepting) return { status: 500 };
      okIds.add(JSON.parse(r.body).id as string);
      return { status: 200 };
    });
    try {
      const first = await startChild();
      const call = caller(first.url);
      expect((await call('POST', '/webhooks', { body: { url: rx.url, events: ['position.created', 'position.matched'] } })).status).toBe(201);
      const ids: string[] = [];
      for (let i = 0; i < 24; i++) {
        const r = await call('POST', '/sandbox/trigger', { body: { type: i % 2 ? 'position.created' : 'position.matched', userId: `u${i}` } });
        expect(r.status).toBe(200);
        ids.push(r.body.eventId);
      }
      // Some attempts have failed (retries pending); kill at once, before the rest go out.
      await rx.waitFor(5, 30_000);
      first.child.kill('SIGKILL');
      await first.exited;
      const failedBeforeKill = rx.received.length;
      expect(failedBeforeKill).toBeGreaterThanOrEqual(5);

      accepting = true;
      const second = await startChild();
      await vi.waitFor(() => expect(ids.filter((id) => !okIds.has(id)), 'events never delivered').toEqual([]), { timeout: 30_000, interval: 50 });
      expect([...okIds].every((id) => ids.includes(id)), 'only our events arrive').toBe(true);
      const call2 = caller(second.url);
      await sleep(100);
      for (const id of [ids[0], ids[ids.length - 1]]) {
        expect((await call2('GET', `/sandbox/events/${id}/attempts`)).body.state, id).toBe('delivered');
      }
      second.child.kill('SIGTERM');
      await second.exited;
    } finally {
      await rx.close();
    }
  }, 120_000);
});
