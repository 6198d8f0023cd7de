import type { Clock } from '../engine/clock.ts';
import type { Db } from '../store/db.ts';

// Answers to GET /positions/{id} and GET /users/{id}/positions kept as the bytes the core
// sent, so a repeat of the same request by the same partner is answered by the node:http
// listener without the router, the middleware chain, zod, SQLite or JSON.stringify.
//
// Why this is the same answer the core would give:
//  - an entry is stored only by the core's own handler, after it validated the request and
//    built the answer (errors are never stored), under the partner and the exact request
//    target (path and query string);
//  - an entry lives only while the database is unchanged: SQLite's total_changes() counts
//    every row inserted, updated or deleted on the sandbox's connection (triggers included,
//    rolled-back ones too, which can only drop entries), and any change empties the cache
//    (that connection is the only writer: drills and checks open the file read-only);
//  - nothing is stored or served while a transaction is open (an uncommitted write could
//    still roll back, and answers wait for commits);
//  - a view that depends on the business clock (accrued interest of a matched, running
//    position) is kept only for the instant it was computed for;
//  - the core's answers to these reads depend on nothing else: the partner, the target,
//    the rows and the clock (the profile is fixed for a sandbox's life);
//  - it is off whenever a plugin installs middleware (rate limits, metrics), since those
//    must see every request.

export interface CachedAnswer {
  status: number;
  body: string;
  /** Bytes of body, as Content-Length. */
  length: number;
  /** Business time the view was computed for, when it changes with time. */
  at?: number;
}

const MAX_ENTRIES = 10_000;

export class ReadCache {
  private version = -1;
  private readonly entries = new Map<string, CachedAnswer>();
  private readonly changes: () => number;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    const stmt = db.prepare('SELECT total_changes()').pluck();
    this.changes = () => stmt.get() as number;
  }

  /** The version entries are valid for, or undefined while a transaction is open. */
  private current(): number | undefined {
    if (this.db.inTransaction) return undefined;
    const v = this.changes();
    if (v !== this.version) {
      this.entries.clear();
      this.version = v;
    }
    return v;
  }

  get size(): number {
    return this.entries.size;
  }

  get(partnerId: string, target: string): CachedAnswer | undefined {
    if (this.current() === undefined) return undefined;
    const a = this.entries.get(`${partnerId}\u0000${target}`);
    if (a && a.at !== undefined && a.at !== this.clock.now()) return undefined;
    return a;
  }

  put(partnerId: string, target: string, answer: CachedAnswer): void {
    if (this.current() === undefined) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(`${partnerId}\u0000${target}`, answer);
  }
}
