import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runBin } from '../testing/run-bin.ts';

// The Go build of a k6 version the proxy refuses is tried at install time (ensure-k6.mjs in
// `prepare`, `lendcheck k6 install`) and recorded; `lendcheck k6` and `lendcheck load` read the
// record and neither build again nor say they do. A fake `go` (the proxy's 403) counts its calls.

const ENSURE = fileURLToPath(new URL('../../scripts/ensure-k6.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'lendcheck-k6-once-'));
const bin = join(dir, 'bin');
const cache = join(dir, 'cache');
const goCalls = join(dir, 'go-calls');
mkdirSync(bin);
writeFileSync(
  join(bin, 'go'),
  `#!/bin/sh
if [ "$1" = version ]; then echo "go version go1.26.0 linux/amd64"; exit 0; fi
echo "$*" >> ${JSON.stringify(goCalls)}
echo "go: go.k6.io/k6/v2@v2.3.0: reading https://proxy.golang.org/go.k6.io/k6/v2/@v/v2.3.0.zip: 403 Forbidden" >&2
echo "	server response: This module version is not available." >&2
exit 1
`,
);
chmodSync(join(bin, 'go'), 0o755);
// The fallback the machine already has, in the cache's bin dir, answering `version` as k6 does.
mkdirSync(join(cache, 'bin'), { recursive: true });
writeFileSync(join(cache, 'bin', 'k6-v2.2.0'), '#!/bin/sh\necho "k6 v2.2.0 (go1.26.0, linux/amd64)"\n');
chmodSync(join(cache, 'bin', 'k6-v2.2.0'), 0o755);
const env = { ...process.env, PATH: `${bin}:/usr/bin:/bin`, LENDCHECK_CACHE: cache, K6_BIN: '' };
delete (env as Record<string, string | undefined>).K6_BIN;
const calls = () => (existsSync(goCalls) ? readFileSync(goCalls, 'utf8').trim().split('\n').filter(Boolean).length : 0);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('k6 is found or built once, at install', () => {
  it('install time tries the refused build and records it; k6 and load then read the record', async () => {
    const install = spawnSync(process.execPath, [ENSURE, '--soft'], { env, encoding: 'utf8' });
    expect(install.status).toBe(0);
    expect(install.stderr).toContain('trying to build k6 v2.3.0');
    const afterInstall = calls();
    expect(afterInstall).toBeGreaterThan(0);
    const state = JSON.parse(readFileSync(join(cache, 'k6.json'), 'utf8'));
    expect(state.version).toBe('v2.2.0');
    expect(state.refused['v2.3.0'].error).toContain('403');

    for (const args of [['k6'], ['k6'], ['load', '--scenario', 'rate-limit', '--emit', 'k6-operator', '--base-url', 'http://127.0.0.1:1/v1', '--report-dir', join(dir, 'op')]]) {
      const r = await runBin(args, { env, timeoutMs: 60_000 });
      expect(r.stderr).not.toMatch(/trying to build|finding or building/);
      if (args[0] === 'k6') expect(r.stdout).toContain(`k6 v2.2.0 at ${join(cache, 'bin', 'k6-v2.2.0')}`);
    }
    expect(calls()).toBe(afterInstall);

    // `k6 install` is install time too: the refused version is tried again there, and only there.
    const again = await runBin(['k6', 'install'], { env, timeoutMs: 60_000 });
    expect(again.status).toBe(0);
    expect(calls()).toBeGreaterThan(afterInstall);
  }, 120_000);
});
