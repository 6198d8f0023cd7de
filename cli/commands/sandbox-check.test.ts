import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { testSandbox } from '../../sandbox/testing/helpers.ts';
import { registerSandboxCheck } from './sandbox-check.ts';
import { runInProcess } from '../testing/run-in-process.ts';

// In-process (spawning the CLI costs seconds on a loaded box): exit codes and output of
// the checker command on a clean file and on a copy with one balance edited.
const dir = mkdtempSync(join(tmpdir(), 'lendcheck-sandbox-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => void (process.exitCode = undefined));

const run = (...args: string[]) => runInProcess(registerSandboxCheck, ['sandbox-check', ...args]);

describe('lendcheck sandbox-check', () => {
  it('exits 0 on a clean file and 1 naming the rule on a corrupted copy, in text and JSON', async () => {
    const clean = join(dir, 'clean.db');
    const sb = testSandbox({ dbPath: clean, liquidity: { enabled: true, delaySeconds: 5 } });
    sb.engine.lend('pa', { userId: 'u1', asset: 'USDC', amount: '250.5', rate: 0.05 });
    sb.engine.fund('pa', 'u1', 'DAI', '10');
    sb.clock.advance(60_000); // the liquidity provider fills the order
    await sb.close();

    const ok = await run('--db', clean);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/^PASSED sandbox-check .*: 0 violation\(s\) over 1 positions, 1 fills/);

    const bad = join(dir, 'bad.db');
    copyFileSync(clean, bad);
    const db = new Database(bad);
    expect(db.prepare("UPDATE balances SET available = available + 1 WHERE user_id = 'u1' AND asset = 'DAI'").run().changes).toBe(1);
    db.close();
    const notOk = await run('--db', bad);
    expect(notOk.code).toBe(1);
    expect(notOk.out).toMatch(/^FAILED/);
    expect(notOk.out).toMatch(/conservation +DAI: expected held 100010 .* \/ received held 100011/);

    const json = await run('--db', bad, '--json');
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.out) as { ok: boolean; violations: Array<{ rule: string; subject: string }> };
    expect(parsed.ok).toBe(false);
    expect(parsed.violations).toContainEqual(expect.objectContaining({ rule: 'conservation', subject: 'DAI' }));
  });

  it('refuses a missing file instead of creating one', async () => {
    await expect(run('--db', join(dir, 'nope.db'))).rejects.toThrow(/--db: no file/);
  });
});
