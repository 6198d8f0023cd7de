import { describe, expect, it } from 'vitest';
import { runBin } from './testing/run-bin.ts';

const run = (...args: string[]) => runBin(args);

// Each case is its own process: they run side by side.
describe.concurrent('lendcheck CLI', () => {
  it('prints help listing its subcommands', async () => {
    const r = await run('--help');
    expect(r.status).toBe(0);
    for (const c of ['gate', 'profile', 'openapi', 'k6']) expect(r.stdout).toMatch(new RegExp(`^\\s+${c}\\b`, 'm'));
  });
  it('prints the package version', async () => {
    const r = await run('--version');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
  it('rejects an unknown command with a non-zero exit', async () => {
    const r = await run('frobnicate');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/unknown command/);
  });
  it('reports an invalid profile file naming the field', async () => {
    const r = await run('profile', '--profile', '/nonexistent/profile.json');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/cannot read profile/);
  });
});

describe.concurrent('lendcheck CLI bounds', () => {
  it('refuses a retry wait out of bounds, naming the flag, before starting any target', async () => {
    for (const args of [['profile', 'detect', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'ck_test_x'], ['gate', '--detect-profile']]) {
      const r = await run(...args, '--retry-wait', '-5');
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/--retry-wait: seconds from 0 to 3600, got -5/);
    }
  });
});
