import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { registerChaos } from './chaos.ts';
import { start as startSample } from '../../examples/receivers/sample.ts';
import { start as startBroken } from '../../examples/receivers/broken/accepts-missing-signature.ts';
import { startReceiver } from '../../chaos/receiver.ts';
import { runChaosSchedule } from '../../chaos/schedule/run.ts';
import { signWebhook } from '../../signing/signature.ts';
import { runInProcess } from '../testing/run-in-process.ts';
import { startSandboxServer } from '../../sandbox/server.ts';

// The chaos subcommands in-process (spawning the CLI costs seconds per run on a loaded box):
// exit codes, report files, and that the secret never reaches the output.
const dir = mkdtempSync(join(tmpdir(), 'lendcheck-chaos-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const secret = 'whsec_cli_test_secret_value_1234';

const run = (...args: string[]) => runInProcess(registerChaos, ['chaos', ...args]);
afterEach(() => void (process.exitCode = undefined));

describe('lendcheck chaos', () => {
  it('certify exits 0 for the sample and 1 for a broken receiver, writes JSON and JUnit, never prints the secret', async () => {
    const good = await startSample({ secret });
    const bad = await startBroken({ secret });
    try {
      const ok = await run('certify', '--url', good.url, '--secret', secret, '--burst', '10', '--report-dir', join(dir, 'good'), '--source', fileURLToPath(new URL('../../examples/receivers/sample.ts', import.meta.url)));
      expect(ok.code).toBe(0);
      expect(ok.out).toMatch(/CERTIFIED/);
      const notOk = await run('certify', '--url', bad.url, '--secret', secret, '--burst', '10', '--report-dir', join(dir, 'bad'));
      expect(notOk.code).toBe(1);
      expect(notOk.out).toMatch(/FAIL signature\.missing/);
      const json = readFileSync(join(dir, 'bad', 'chaos-certify.json'), 'utf8');
      expect(JSON.parse(json).checks.find((c: { id: string }) => c.id === 'signature.missing').status).toBe('failed');
      expect(readFileSync(join(dir, 'bad', 'chaos-certify.junit.xml'), 'utf8')).toMatch(/<testcase[^>]+signature\.missing[\s\S]*?<failure/);
      for (const text of [ok.out, notOk.out, json]) expect(text).not.toContain(secret);
    } finally {
      await good.close();
      await bad.close();
    }
  });

  it('validate exits 1 on a recording with nothing in it and 0 on a conforming one', async () => {
    const empty = join(dir, 'empty.db');
    await (await startReceiver({ secret, db: empty })).close();
    expect((await run('validate', '--db', empty, '--report-dir', join(dir, 'v1'))).code).toBe(1);
    expect(existsSync(join(dir, 'v1', 'chaos-validate.junit.xml'))).toBe(true);

    const one = join(dir, 'one.db');
    const rx = await startReceiver({ secret, db: one });
    const body = JSON.stringify({ id: 'evt_cli', type: 'position.created', timestamp: new Date().toISOString(), data: {} });
    expect((await fetch(rx.url, { method: 'POST', body, headers: { 'x-service-signature': signWebhook(body, secret) } })).status).toBe(200);
    await rx.close();
    const r = await run('validate', '--db', one, '--report-dir', join(dir, 'v2'));
    expect(r.out).toMatch(/^PASSED chaos/);
    expect(r.code).toBe(0);
  });

  it('refuses a secret without the whsec_ prefix, and a ck_live_ key unless allowed', async () => {
    await expect(run('certify', '--url', 'http://127.0.0.1:9/', '--secret', 'nope')).rejects.toThrow(/--secret must start with whsec_/);
    await expect(run('certify', '--url', 'http://127.0.0.1:9/', '--secret', 'whsec_not-base64!', '--scheme', 'standard-webhooks')).rejects.toThrow(/--secret: under standard-webhooks it must be whsec_ followed by base64/);
    await expect(runChaosSchedule({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'ck_live_abc' })).rejects.toThrow(/refusing a ck_live_ key/);
    await expect(run('retries', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'ck_live_abc')).rejects.toThrow(/--api-key: a ck_live_ \(production\) key is refused without --allow-live/);
  });

  it('retries: a target whose deliveries never verify fails at the first one, exit 1, with the reason and the later retries not observed', async () => {
    const sb = await startSandboxServer({ port: 0, controls: false, faults: [{ name: 'hook-resigned-body' }] });
    try {
      const key = sb.keys[0]!.key;
      const r = await run('retries', '--base-url', sb.url, '--api-key', key, '--report-dir', join(dir, 'retries'));
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/signature fails \(mismatch\): no retry can be judged/);
      expect(r.out).toMatch(/skip retries\.retry-3 .*\n.*not observed in this run/);
      expect(r.out).not.toContain(key);
      expect(existsSync(join(dir, 'retries', 'chaos-retries.json'))).toBe(true);
    } finally {
      await sb.close();
    }
  });
});
