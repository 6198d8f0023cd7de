import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RunSummary } from '../../kernel/results.ts';
import { DEFAULT_REPORT_DIR } from '../writers.ts';
import { extractRun, type CheckRow, type FigureRow, type SampleRow } from './extract.ts';

// The run history: one SQLite file under the reports folder that every gate and load run
// appends to, so a later run can be compared with earlier ones (lendcheck compare, gate
// --baseline). One transaction per run appended.

export const HISTORY_FILE = 'history.db';
export const defaultHistoryPath = (reportDir = DEFAULT_REPORT_DIR) => join(reportDir, HISTORY_FILE);

const SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  target TEXT NOT NULL,
  profile TEXT NOT NULL,
  version TEXT NOT NULL,
  git_commit TEXT,
  started_at TEXT NOT NULL,
  verdict TEXT NOT NULL,
  recorded_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_by_target ON runs(target, seq);
CREATE TABLE IF NOT EXISTS figures (
  run INTEGER NOT NULL REFERENCES runs(seq) ON DELETE CASCADE,
  scope TEXT NOT NULL, endpoint TEXT NOT NULL, metric TEXT NOT NULL, value REAL NOT NULL,
  PRIMARY KEY (run, scope, endpoint, metric)
);
CREATE TABLE IF NOT EXISTS samples (
  run INTEGER NOT NULL REFERENCES runs(seq) ON DELETE CASCADE,
  scope TEXT NOT NULL, endpoint TEXT NOT NULL, count INTEGER NOT NULL, samples TEXT NOT NULL,
  PRIMARY KEY (run, scope, endpoint)
);
CREATE TABLE IF NOT EXISTS checks (
  run INTEGER NOT NULL REFERENCES runs(seq) ON DELETE CASCADE,
  part TEXT NOT NULL, check_id TEXT NOT NULL, title TEXT NOT NULL, status TEXT NOT NULL,
  PRIMARY KEY (run, part, check_id)
);
`;

/**
 * The target as the history keys it: an embedded sandbox or a started container listens
 * on a new loopback port every run, so the port in its label is dropped.
 */
export function targetKey(label: string): string {
  return label.replace(/ \(https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+[^)]*\)$/, '');
}

export interface RunKey {
  /** gate or load: what kind of run left the entry. */
  kind: string;
  version: string;
  commit?: string;
}

export interface RunRow {
  seq: number;
  runId: string;
  kind: string;
  target: string;
  profile: string;
  version: string;
  commit: string | null;
  startedAt: string;
  verdict: string;
}

export interface StoredRun extends RunRow {
  figures: FigureRow[];
  samples: SampleRow[];
  checks: CheckRow[];
}

const RUN_COLUMNS = 'seq, run_id AS runId, kind, target, profile, version, git_commit AS "commit", started_at AS startedAt, verdict';

export class History {
  readonly db: Database.Database;
  constructor(readonly file: string) {
    mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    this.db.exec(SCHEMA);
  }

  close(): void {
    this.db.close();
  }

  /** Appends a run's figures; a run id already stored is replaced (a report rewritten). */
  append(summary: Pick<RunSummary, 'runId' | 'target' | 'profile' | 'startedAt' | 'verdict' | 'parts'>, key: RunKey): number {
    const x = extractRun(summary);
    return this.db.transaction(() => {
      this.db.prepare('DELETE FROM runs WHERE run_id = ?').run(summary.runId);
      const seq = Number(
        this.db
          .prepare('INSERT INTO runs (run_id, kind, target, profile, version, git_commit, started_at, verdict, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
          .run(summary.runId, key.kind, targetKey(summary.target), summary.profile, key.version, key.commit ?? null, summary.startedAt, summary.verdict, new Date().toISOString()).lastInsertRowid,
      );
      const f = this.db.prepare('INSERT OR REPLACE INTO figures (run, scope, endpoint, metric, value) VALUES (?, ?, ?, ?, ?)');
      for (const r of x.figures) f.run(seq, r.scope, r.endpoint, r.metric, r.value);
      const s = this.db.prepare('INSERT OR REPLACE INTO samples (run, scope, endpoint, count, samples) VALUES (?, ?, ?, ?, ?)');
      for (const r of x.samples) s.run(seq, r.scope, r.endpoint, r.count, JSON.stringify(r.samples));
      const c = this.db.prepare('INSERT OR REPLACE INTO checks (run, part, check_id, title, status) VALUES (?, ?, ?, ?, ?)');
      for (const r of x.checks) c.run(seq, r.part, r.id, r.title, r.status);
      return seq;
    })();
  }

  runs(filter: { target?: string; before?: number; verdict?: string; limit?: number } = {}): RunRow[] {
    const where: string[] = [];
    const args: unknown[] = [];
    const add = (clause: string, arg: unknown) => {
      where.push(clause);
      args.push(arg);
    };
    if (filter.target !== undefined) add('target = ?', targetKey(filter.target));
    if (filter.before !== undefined) add('seq < ?', filter.before);
    if (filter.verdict !== undefined) add('verdict = ?', filter.verdict);
    const sql = `SELECT ${RUN_COLUMNS} FROM runs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?`;
    return this.db.prepare(sql).all(...args, filter.limit ?? 1000) as RunRow[];
  }

  /** A run by id, or "last" for the newest. */
  find(ref: string): RunRow | undefined {
    if (ref === 'last') return this.runs({ limit: 1 })[0];
    return this.db.prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE run_id = ?`).get(ref) as RunRow | undefined;
  }

  load(run: RunRow): StoredRun {
    const figures = this.db.prepare('SELECT scope, endpoint, metric, value FROM figures WHERE run = ?').all(run.seq) as FigureRow[];
    const samples = (this.db.prepare('SELECT scope, endpoint, count, samples FROM samples WHERE run = ?').all(run.seq) as Array<Omit<SampleRow, 'samples'> & { samples: string }>).map((r) => ({
      ...r,
      samples: JSON.parse(r.samples) as number[],
    }));
    const checks = this.db.prepare('SELECT part, check_id AS id, title, status FROM checks WHERE run = ?').all(run.seq) as CheckRow[];
    return { ...run, figures, samples, checks };
  }

  /** The default baseline: the last passing run against the same target before `run`. */
  lastPassing(run: Pick<RunRow, 'target' | 'seq'>): RunRow | undefined {
    return this.runs({ target: run.target, before: run.seq, verdict: 'passed', limit: 1 })[0];
  }
}
