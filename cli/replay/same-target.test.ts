import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultProfile } from '../../contract/index.ts';
import { serveWrapped, type EmbeddedTarget } from '../../conformance/embedded.ts';
import { MUTANTS_BY_ID } from '../../conformance/testing/mutants/index.ts';
import { runBin } from '../testing/run-bin.ts';

// replay says "fixed" only against the run's own target with the run's own keys (their salted
// fingerprints in failures.json): the fix deployed at the same address is "fixed"; the same
// target with another key is "passes now", exit 3, naming the option that changed.

const tmp = mkdtempSync(join(tmpdir(), 'lendcheck-replay-same-'));
let target: EmbeddedTarget;
let broken = true;

beforeAll(async () => {
  const mutant = MUTANTS_BY_ID.get('auth.403-not-401')!.install({});
  target = await serveWrapped((req, next) => (broken ? mutant(req, next) : next(req)), { profile: defaultProfile, validateResponses: false });
});
afterAll(async () => {
  await target?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const env = (apiKey: string) => {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(LENDCHECK_|GITHUB_|NO_COLOR|FORCE_COLOR|CI$|VITEST)/.test(k)));
  return { ...base, NO_COLOR: '1', LENDCHECK_API_KEY: apiKey, LENDCHECK_API_KEY_2: target.apiKey2 ?? '', LENDCHECK_BURST_KEY: target.burstKey ?? '' };
};

describe('replay: "fixed" only with the same target and keys', () => {
  it('still failing, then another key (passes now, exit 3), then fixed', async () => {
    const run = await runBin(['conformance', '--base-url', target.url, '--only', 'auth.missing-header', '--report-dir', tmp], { env: env(target.apiKey), timeoutMs: 90_000 });
    expect(run.status, run.stdout + run.stderr).toBe(1);
    // The failed check on the console, its curl under it (issue 50 item 6).
    expect(run.stdout).toMatch(/^ {2}✗ .*conformance\/auth\.missing-header: .*\n {6}# reproduce.*\n {6}curl -sS -i /m);
    const file = join(tmp, 'failures.json');
    const written = readFileSync(file, 'utf8');
    expect(written).toMatch(/"credentials": \{\s*"salt"/);
    for (const k of [target.apiKey, target.apiKey2, target.burstKey].filter(Boolean) as string[]) expect(written).not.toContain(k);

    const still = await runBin(['replay', file], { env: env(target.apiKey), timeoutMs: 90_000 });
    expect(still.status).toBe(1);
    expect(still.stdout).toMatch(/^still failing {2}conformance\/auth\.missing-header/m);

    broken = false;
    const otherKey = await runBin(['replay', file], { env: env(target.burstKey!), timeoutMs: 90_000 });
    expect(otherKey.status, otherKey.stdout).toBe(3);
    expect(otherKey.stdout).toContain('changed: --api-key: not the key the run used');
    expect(otherKey.stdout).toMatch(/^passes now {2}conformance\/auth\.missing-header/m);
    expect(otherKey.stdout).not.toContain(target.burstKey!);

    const fixed = await runBin(['replay', file], { env: env(target.apiKey), timeoutMs: 90_000 });
    expect(fixed.status, fixed.stdout).toBe(0);
    expect(fixed.stdout).toMatch(/^fixed {2}conformance\/auth\.missing-header/m);
    expect(fixed.stdout).not.toMatch(/not the run's target/);
  }, 240_000);
});
