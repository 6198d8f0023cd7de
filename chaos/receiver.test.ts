import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { parseProfile } from '../contract/index.ts';
import { generateWebhookSecret } from '../signing/signature.ts';
import { startReceiver } from './receiver.ts';
import { signWebhook } from '../signing/signature.ts';
import { AttemptStore } from './store.ts';
import { setTimeout as sleep } from 'node:timers/promises';

const dir = mkdtempSync(join(tmpdir(), 'lendcheck-receiver-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const secret = 'whsec_receiver_test';
const entry = fileURLToPath(new URL('./testing/receiver-process.ts', import.meta.url));
const body = (id: string, type = 'position.created') => JSON.stringify({ id, type, timestamp: new Date().toISOString(), data: { positionId: 'pos_1' } });
const post = (url: string, b: string, sig = signWebhook(b, secret)) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': sig }, body: b });

describe('receiver', () => {
  it('answers 401 to a bad signature and records it, 200 to a good one', async () => {
    const rx = await startReceiver({ secret });
    expect((await post(rx.url, body('evt_a'))).status).toBe(200);
    expect((await post(rx.url, body('evt_a'), signWebhook(body('evt_a'), 'whsec_other'))).status).toBe(401);
    expect((await post(rx.url, body('evt_b'), '')).status).toBe(401);
    await sleep(20);
    const rows = rx.store.attempts();
    expect(rows.map((r) => [r.eventId, r.attempt, r.sigOk, r.sigReason, r.status])).toEqual([
      ['evt_a', 1, true, null, 200],
      ['evt_a', 2, false, 'mismatch', 401],
      ['evt_b', 1, false, 'missing', 401],
    ]);
    expect(rows[0].bodySha256).toMatch(/^[0-9a-f]{64}$/);
    await rx.close();
  });

  it('under standard-webhooks, accepts what the standardwebhooks package signs and refuses it with another id', async () => {
    const whsec = generateWebhookSecret();
    const rx = await startReceiver({ secret: whsec, profile: parseProfile({ signature: { scheme: 'standard-webhooks' } }) });
    try {
      const b = body('evt_std');
      const ts = new Date();
      const h = { 'webhook-id': 'evt_std', 'webhook-timestamp': String(Math.floor(ts.getTime() / 1000)), 'webhook-signature': new Webhook(whsec).sign('evt_std', ts, b) };
      const send = (headers: Record<string, string>) => fetch(rx.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: b });
      expect((await send(h)).status).toBe(200);
      expect((await send({ ...h, 'webhook-id': 'evt_other' })).status).toBe(401);
      expect(rx.store.attempts().map((r) => [r.sigOk, r.sigReason])).toEqual([[true, null], [false, 'mismatch']]);
    } finally {
      await rx.close();
    }
  });

  it('loses no acknowledged observation when killed with SIGKILL, and numbers attempts on after a restart', async () => {
    const db = join(dir, 'kill.db');
    const child = spawn(process.execPath, ['--import', 'tsx', entry, db], { env: { ...process.env, LENDCHECK_WEBHOOK_SECRET: secret }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c) => {
          out += c;
          const m = /receiving on (\S+)/.exec(out);
          if (m) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`receiver exited ${code}`)));
        setTimeout(() => reject(new Error('receiver did not start')), 20_000);
      });
      const statuses = await Promise.all(Array.from({ length: 300 }, (_, i) => post(url, body(`evt_${i % 100}`)).then((r) => r.status)));
      expect(statuses.every((s) => s === 200)).toBe(true);
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    const store = new AttemptStore(db);
    expect(store.attempts()).toHaveLength(300);
    store.close();

    const rx = await startReceiver({ secret, db });
    expect((await post(rx.url, body('evt_7'))).status).toBe(200);
    await rx.close();
    const after = new AttemptStore(db);
    const seven = after.attempts().filter((a) => a.eventId === 'evt_7');
    expect(seven.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
    expect(after.sessions()).toHaveLength(2);
    after.close();
  });
});
