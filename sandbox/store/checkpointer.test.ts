import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BACKSTOP_PAGES, startCheckpointer } from './checkpointer.ts';
import { openDb } from './db.ts';
import { setTimeout as sleep } from 'node:timers/promises';

const dir = mkdtempSync(join(tmpdir(), 'lc-ckpt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('background checkpointer', () => {
  it('copies committed pages into the database file off the writer\'s thread, and loses none', async () => {
    const path = join(dir, 'a.db');
    const db = openDb(path);
    const cp = startCheckpointer(db, path, 20);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_PAGES);
    db.exec('CREATE TABLE t (i INTEGER PRIMARY KEY, v TEXT)');
    // The worker's first run marks it started (a loaded machine takes a moment to start a thread).
    for (let i = 0; i < 200 && cp.stats().runs === 0; i++) await sleep(25);
    const ins = db.prepare('INSERT INTO t (v) VALUES (?)');
    // 40 commits of ~100 pages each: 4,000 pages, far below the backstop, so only the worker can checkpoint them.
    for (let c = 0; c < 40; c++) {
      db.transaction(() => {
        for (let i = 0; i < 100; i++) ins.run('x'.repeat(3000));
      })();
      await sleep(10);
    }
    await sleep(100);
    const s = cp.stats();
    expect(s.failures, s.lastError).toBe(0);
    expect(s.runs).toBeGreaterThan(5);
    // Only a checkpoint writes pages into the database file, and the writer's own threshold
    // (the backstop) was never reached: the file holding the rows proves the worker copied them.
    expect(statSync(path).size).toBeGreaterThan(4_000 * 4096 * 0.9);
    await cp.stop();
    db.close();
    const r = new Database(path, { readonly: true });
    expect(r.prepare('SELECT count(*) FROM t').pluck().get()).toBe(4000);
    r.close();
  });

  it('reports a failing worker instead of hiding it (the backstop then covers)', async () => {
    const path = join(dir, 'missing', 'b.db'); // the worker opens with fileMustExist
    const db = openDb(':memory:');
    const cp = startCheckpointer(db, path, 20);
    for (let i = 0; i < 400 && cp.stats().failures === 0; i++) await sleep(25);
    expect(cp.stats().failures).toBeGreaterThan(0);
    expect(cp.stats().lastError).toMatch(/unable to open|directory does not exist|no such file/i);
    await cp.stop();
    db.close();
  });
});
