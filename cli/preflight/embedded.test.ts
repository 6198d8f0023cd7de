import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBin } from '../testing/run-bin.ts';
import { InputError } from '../exit-codes.ts';
import { checkKeysOnEmbedded } from './embedded.ts';

// A key the embedded sandbox refuses (no --base-url) is exit 2 at once, as against any target:
// never a run of failures (conformance), nor ignored (gate --only contract). Keys are never printed.

const WRONG = 'ck_test_not_a_key_of_the_sandbox';
const dir = mkdtempSync(join(tmpdir(), 'lendcheck-embedded-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the embedded sandbox checks a given key', () => {
  it('takes its own key and refuses another, naming the option', async () => {
    await expect(checkKeysOnEmbedded([{ option: '--api-key', key: 'ck_test_partner_a_growth' }])).resolves.toBeUndefined();
    const refused = checkKeysOnEmbedded([{ option: '--api-key-2', key: WRONG }]);
    await expect(refused).rejects.toBeInstanceOf(InputError);
    await expect(refused).rejects.toThrow(/--api-key-2: the target refused this key.*embedded sandbox/);
  });

  it("a load run's --keys pool is the embedded sandbox's too: a pool key passes the check", async () => {
    const pool = [{ key: 'ck_test_pool_key_1', partnerId: 'pool-1', tier: 'scale' }];
    const { DEFAULT_KEYS } = await import('../../sandbox/auth/keys.ts');
    await expect(checkKeysOnEmbedded([{ option: '--api-key', key: pool[0].key }], { sandboxKeys: [...DEFAULT_KEYS, ...pool] })).resolves.toBeUndefined();
    await expect(checkKeysOnEmbedded([{ option: '--api-key', key: pool[0].key }])).rejects.toBeInstanceOf(InputError);
  });

  it('no key given: nothing is started or checked', async () => {
    await expect(checkKeysOnEmbedded([{ option: 'LENDCHECK_API_KEY', key: undefined }])).resolves.toBeUndefined();
  });

  it.each([
    ['gate', ['gate']],
    ['gate --only contract', ['gate', '--only', 'contract']],
    ['gate --only conformance', ['gate', '--only', 'conformance']],
    ['gate --only load', ['gate', '--only', 'load']],
    ['gate --only chaos', ['gate', '--only', 'chaos']],
    ['gate --only certify', ['gate', '--only', 'certify']],
    ['conformance', ['conformance']],
    ['load', ['load', '--scenario', 'rate-limit', '--smoke']],
    ['chaos schedule', ['chaos', 'schedule']],
    ['listen', ['listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--sandbox-port', '0']],
  ])('%s with a refused --api-key: exit 2, one line, nothing run', async (_name, args) => {
    const reports = join(dir, args[0]);
    const t0 = Date.now();
    const r = await runBin([...args, '--api-key', WRONG, ...(args[0] === 'listen' ? [] : ['--report-dir', reports])], { timeoutMs: 60_000 });
    const ms = Date.now() - t0;
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^lendcheck: --api-key: the target refused this key/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr + r.stdout).not.toContain(WRONG);
    expect(() => readdirSync(reports)).toThrow();
    // 5 s on an idle machine (the CLI's start and one sandbox); bounded loosely for a loaded CI.
    expect(ms).toBeLessThan(30_000);
  }, 60_000);
});
