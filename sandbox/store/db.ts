import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { preparesLazily } from './lazy-statements.ts';
import { OUTBOX_DDL } from './outbox.ts';
import { markSchemaWhole } from './whole-schema.ts';

export type Db = Database.Database;

// One file holds every table. WAL with synchronous=NORMAL: a commit is in the WAL before
// the call returns, so a killed process loses nothing it acknowledged (only a power cut
// could lose the last commits); the kill test checks this.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS users (
  partner_id TEXT NOT NULL, user_id TEXT NOT NULL, created_at_ms INTEGER NOT NULL,
  PRIMARY KEY (partner_id, user_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS balances (
  partner_id TEXT NOT NULL, user_id TEXT NOT NULL, asset TEXT NOT NULL,
  available TEXT NOT NULL, locked TEXT NOT NULL,
  PRIMARY KEY (partner_id, user_id, asset)) WITHOUT ROWID;
-- positions and outbox_events number rows by rowid alone, without AUTOINCREMENT, whose
-- sqlite_sequence row was one more B-tree write per insert (a sixth of an order's two inserts,
-- bench, alternating rounds). Neither table ever deletes a row, so seq still only grows; files
-- made before keep their AUTOINCREMENT, which numbers the same way.
CREATE TABLE IF NOT EXISTS positions (
  seq INTEGER PRIMARY KEY,
  id TEXT UNIQUE NOT NULL,
  partner_id TEXT NOT NULL, user_id TEXT NOT NULL,
  type TEXT NOT NULL, asset TEXT NOT NULL, market TEXT NOT NULL,
  amount TEXT NOT NULL, filled TEXT NOT NULL, fill_value TEXT NOT NULL,
  limit_rate REAL NOT NULL, rate REAL NOT NULL,
  maturity_ms INTEGER NOT NULL, status TEXT NOT NULL, mode TEXT,
  auto_rollover INTEGER NOT NULL, auto_refinance INTEGER NOT NULL,
  collateral_asset TEXT, collateral_amount TEXT,
  debt TEXT NOT NULL, interest_paid TEXT NOT NULL, payout TEXT,
  created_at_ms INTEGER NOT NULL, matched_at_ms INTEGER, closed_at_ms INTEGER,
  rolled_from TEXT, rolled_to TEXT);
-- No index by user: each user's keys in list order are held in memory (engine/user-keys.ts),
-- loaded from this table at start. As an index, every order wrote a leaf page of its own.
DROP INDEX IF EXISTS positions_by_user;
DROP INDEX IF EXISTS positions_by_user_cover;
DROP INDEX IF EXISTS positions_by_user_keys;
CREATE INDEX IF NOT EXISTS positions_pending ON positions (status, created_at_ms);
CREATE INDEX IF NOT EXISTS positions_maturity ON positions (status, maturity_ms);
CREATE TABLE IF NOT EXISTS fills (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, ts_ms INTEGER NOT NULL, asset TEXT NOT NULL, market TEXT NOT NULL,
  lend_id TEXT, borrow_id TEXT, amount TEXT NOT NULL, rate REAL NOT NULL);
CREATE INDEX IF NOT EXISTS fills_by_time ON fills (ts_ms);
CREATE TABLE IF NOT EXISTS withdrawals (
  id TEXT PRIMARY KEY, partner_id TEXT NOT NULL, user_id TEXT NOT NULL, asset TEXT NOT NULL,
  amount TEXT NOT NULL, destination TEXT NOT NULL, status TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL, due_ms INTEGER NOT NULL, completed_at_ms INTEGER);
CREATE INDEX IF NOT EXISTS withdrawals_due ON withdrawals (status, due_ms);
-- Every credit that brings value in from outside (starting funds, the fund control), written
-- in the same transaction as the credit, so the ledger can be checked from the file alone
-- (sandbox/store/check.ts): what is held equals Σ external − Σ withdrawals.
CREATE TABLE IF NOT EXISTS ledger_external (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, ts_ms INTEGER NOT NULL, partner_id TEXT NOT NULL, user_id TEXT NOT NULL,
  asset TEXT NOT NULL, amount TEXT NOT NULL, kind TEXT NOT NULL);
${OUTBOX_DDL};
CREATE TABLE IF NOT EXISTS oracle (asset TEXT PRIMARY KEY, price_usd TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS market_snapshots (
  ts_ms INTEGER NOT NULL, asset TEXT NOT NULL, market TEXT NOT NULL,
  lend_rate REAL NOT NULL, borrow_rate REAL NOT NULL, total_lent TEXT NOT NULL, total_borrowed TEXT NOT NULL,
  PRIMARY KEY (ts_ms, asset, market)) WITHOUT ROWID;
`;

export function openDb(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // Pages read through a memory map and a 64 MiB page cache: with SQLite's 2 MiB default, a
  // growing file's index pages were read back with a pread each on the order path.
  db.pragma('cache_size = -65536');
  if (path !== ':memory:') db.pragma('mmap_size = 268435456');
  db.exec(SCHEMA);
  return db;
}

/** A private in-memory database, a copy of `image` (SQLite deserialize: the buffer is copied,
 *  so every copy is its own). The same pragmas as openDb's ':memory:'. Its statements are
 *  prepared on first use (lazy-statements.ts): a sandbox per test runs few of them. */
export function openImage(image: Buffer): Db {
  const db = preparesLazily(new Database(image));
  db.pragma('cache_size = -65536');
  // Its schema, the webhook tables included, is whole already: the migrations need not run again.
  markSchemaWhole(db);
  return db;
}

export function getMeta(db: Db, k: string): string | undefined {
  return (db.prepare('SELECT v FROM meta WHERE k = ?').get(k) as { v: string } | undefined)?.v;
}

export function setMeta(db: Db, k: string, v: string): void {
  db.prepare('INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v').run(k, v);
}
