import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('./bin.js', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });

describe('lendcheck CLI', () => {
  it('prints help listing its subcommands', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    for (const c of ['gate', 'profile', 'openapi', 'k6']) expect(r.stdout).toMatch(new RegExp(`^\\s+${c}\\b`, 'm'));
  });
  it('prints the package version', () => {
    const r = run('--version');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
  it('rejects an unknown command with a non-zero exit', () => {
    const r = run('frobnicate');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/unknown command/);
  });
  it('reports an invalid profile file naming the field', () => {
    const r = run('profile', '--profile', '/nonexistent/profile.json');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/cannot read profile/);
  });
});
