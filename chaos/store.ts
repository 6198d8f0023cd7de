import Database from 'better-sqlite3';

// The receiver's observations. Durability: a row is committed before the receiver answers
// (group commit: every request of one event-loop turn shares one transaction), so whatever
// the sender saw an answer to is on disk in the WAL; a crash loses at most deliveries that
// were never answered, which the sender must retry anyway. synchronous=NORMAL in WAL mode
// survives a process crash (only a power loss can drop the last commits).

export interface AttemptRow {
  seq: number;
  session: number;
  eventId: string | null;
  eventType: string | null;
  attempt: number;
  arrivalMs: number;
  endedMs: number | null;
  bodySha256: string;
  contentKey: string | null;
  /** data.positionId or data.withdrawalId: what the event is about. */
  subject: string | null;
  bodyBytes: number;
  sigOk: boolean;
  sigReason: string | null;
  fault: string | null;
  response: string | null;
  status: number | null;
}

export interface SessionRow {
  id: number;
  startedMs: number;
  endedMs: number | null;
  timeScale: number;
  scheme: string;
  plan: string;
  /** Worst timer lateness of the receiver's process during the session (event-loop delay), ms. */
  loopDelayMaxMs: number | null;
}

/** endedMs/response/status are given when the answer is known before it is sent (one row, no update). */
export type NewAttempt = Omit<AttemptRow, 'seq' | 'endedMs' | 'response' | 'status' | 'session'> & Partial<Pick<AttemptRow, 'endedMs' | 'response' | 'status'>>;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  started_ms REAL NOT NULL, ended_ms REAL, time_scale REAL NOT NULL, scheme TEXT NOT NULL, plan TEXT NOT NULL, loop_delay_max_ms REAL
);
CREATE TABLE IF NOT EXISTS attempts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  session INTEGER NOT NULL,
  event_id TEXT, event_type TEXT, attempt INTEGER NOT NULL,
  arrival_ms REAL NOT NULL, ended_ms REAL,
  body_sha256 TEXT NOT NULL, content_key TEXT, subject TEXT, body_bytes INTEGER NOT NULL,
  sig_ok INTEGER NOT NULL, sig_reason TEXT,
  fault TEXT, response TEXT, status INTEGER
);
CREATE INDEX IF NOT EXISTS attempts_event ON attempts(event_id, attempt);
CREATE INDEX IF NOT EXISTS attempts_subject ON attempts(subject, event_type);
`;

/** Runs inside the batch transaction; settles its promise only after the batch committed (or failed). */
interface Op {
  run(): void;
  done(err?: unknown): void;
}

export class AttemptStore {
  readonly db: Database.Database;
  private queue: Op[] = [];
  private scheduled = false;
  private readonly insertStmt;
  private readonly finishStmt;
  private readonly firstStmt;
  session = 0;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    // Checkpoints (the only fsyncs in WAL/NORMAL) block the event loop; doing them every 40 MB
    // of WAL instead of every 4 MB keeps them off the hot path. Durability does not depend on
    // them: committed rows are in the WAL, which the next open replays.
    this.db.pragma('wal_autocheckpoint = 10000');
    this.db.exec(SCHEMA);
    this.insertStmt = this.db.prepare(
      `INSERT INTO attempts (session, event_id, event_type, attempt, arrival_ms, body_sha256, content_key, subject, body_bytes, sig_ok, sig_reason, fault, ended_ms, response, status)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.finishStmt = this.db.prepare('UPDATE attempts SET ended_ms = ?, response = ?, status = ? WHERE seq = ?');
    this.firstStmt = this.db.prepare('SELECT event_id AS eventId, MIN(arrival_ms) AS arrivalMs FROM attempts WHERE subject = ? AND event_type = ? AND sig_ok = 1');
  }

  /** First committed arrival of a correctly signed event of `type` about `subject` (a position id). */
  firstArrival(subject: string, type: string): { eventId: string | null; arrivalMs: number } | undefined {
    const r = this.firstStmt.get(subject, type) as { eventId: string | null; arrivalMs: number | null };
    return r.arrivalMs === null ? undefined : { eventId: r.eventId, arrivalMs: r.arrivalMs };
  }

  openSession(s: { timeScale: number; scheme: string; plan: string; startedMs: number }): number {
    const r = this.db.prepare('INSERT INTO sessions (started_ms, time_scale, scheme, plan) VALUES (?, ?, ?, ?)').run(s.startedMs, s.timeScale, s.scheme, s.plan);
    this.session = Number(r.lastInsertRowid);
    return this.session;
  }

  closeSession(endedMs: number, loopDelayMaxMs?: number): void {
    this.flushNow();
    this.db.prepare('UPDATE sessions SET ended_ms = ?, loop_delay_max_ms = ? WHERE id = ?').run(endedMs, loopDelayMaxMs ?? null, this.session);
  }

  /** Highest attempt number seen per event id, so numbering continues across restarts. */
  attemptCounts(): Map<string, number> {
    const m = new Map<string, number>();
    for (const r of this.db.prepare('SELECT event_id AS id, MAX(attempt) AS n FROM attempts WHERE event_id IS NOT NULL GROUP BY event_id').all() as Array<{ id: string; n: number }>) m.set(r.id, r.n);
    return m;
  }

  /** Queues the row; resolves with its seq once the transaction holding it has committed. */
  record(a: NewAttempt): Promise<number> {
    return new Promise((resolve, reject) => {
      let seq = 0;
      this.enqueue({
        run: () =>
          void (seq = Number(
            this.insertStmt.run(this.session, a.eventId, a.eventType, a.attempt, a.arrivalMs, a.bodySha256, a.contentKey, a.subject, a.bodyBytes, a.sigOk ? 1 : 0, a.sigReason, a.fault, a.endedMs ?? null, a.response ?? null, a.status ?? null).lastInsertRowid,
          )),
        done: (err) => (err ? reject(err) : resolve(seq)),
      });
    });
  }

  /** Queues the outcome of an attempt; committed with the next batch. */
  finish(seq: number, endedMs: number, response: string, status: number | null): Promise<void> {
    return new Promise((resolve, reject) => {
      this.enqueue({ run: () => void this.finishStmt.run(endedMs, response, status, seq), done: (err) => (err ? reject(err) : resolve()) });
    });
  }

  private enqueue(op: Op): void {
    this.queue.push(op);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flushNow());
    }
  }

  flushNow(): void {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    const ops = this.queue;
    this.queue = [];
    try {
      this.db.transaction(() => {
        for (const op of ops) op.run();
      })();
    } catch (e) {
      for (const op of ops) op.done(e);
      return;
    }
    for (const op of ops) op.done();
  }

  attempts(): AttemptRow[] {
    return (this.db.prepare('SELECT * FROM attempts ORDER BY arrival_ms, seq').all() as Array<Record<string, unknown>>).map(toAttempt);
  }

  sessions(): SessionRow[] {
    return (this.db.prepare('SELECT * FROM sessions ORDER BY id').all() as Array<Record<string, unknown>>).map((r) => ({
      id: r.id as number,
      startedMs: r.started_ms as number,
      endedMs: (r.ended_ms as number | null) ?? null,
      timeScale: r.time_scale as number,
      scheme: r.scheme as string,
      plan: r.plan as string,
      loopDelayMaxMs: (r.loop_delay_max_ms as number | null) ?? null,
    }));
  }

  close(): void {
    this.flushNow();
    this.db.close();
  }
}

function toAttempt(r: Record<string, unknown>): AttemptRow {
  return {
    seq: r.seq as number,
    session: r.session as number,
    eventId: (r.event_id as string | null) ?? null,
    eventType: (r.event_type as string | null) ?? null,
    attempt: r.attempt as number,
    arrivalMs: r.arrival_ms as number,
    endedMs: (r.ended_ms as number | null) ?? null,
    bodySha256: r.body_sha256 as string,
    contentKey: (r.content_key as string | null) ?? null,
    subject: (r.subject as string | null) ?? null,
    bodyBytes: r.body_bytes as number,
    sigOk: r.sig_ok === 1,
    sigReason: (r.sig_reason as string | null) ?? null,
    fault: (r.fault as string | null) ?? null,
    response: (r.response as string | null) ?? null,
    status: (r.status as number | null) ?? null,
  };
}

/** Opens an existing store read-only-ish for the validator. */
export function openStore(file: string): AttemptStore {
  return new AttemptStore(file);
}
