import { JSON_TYPE } from '../answer/answer.ts';
import type { Answer } from '../answer/answer.ts';
import type { FrontStage } from './stage.ts';

// Answers to GET /positions/{id} and GET /users/{id}/positions kept as the bytes the core
// sent, so a repeat of the same request by the same partner is answered by a stage of the
// pipeline (readCacheStage, after the plugins' stages, just before the route runs) without the
// route, zod, SQLite or JSON.stringify.
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
//  - it sits inside the plugins' stages (rate limits, metrics, delays, the partner report), so
//    each sees a cached read as any other and adds what it adds (the limit headers) on the way
//    out; what it holds is the core's answer alone. It is off under --fault: a planted bug may
//    make a read depend on more than the rows (kept conservative).

export interface CachedAnswer {
  /** The answer served for it, built once (cachedAnswer): never changed by whoever sends it. */
  answer: Answer;
  /** Business time the view was computed for, when it changes with time. */
  at?: number;
}

/** What the cache reads of the store and the clock (the sandbox gives them: no engine import). */
export interface CacheSource {
  /** Rows changed on the sandbox's connection so far (SQLite total_changes()). */
  changes(): number;
  inTransaction(): boolean;
  /** Business time, ms. */
  now(): number;
}

const MAX_ENTRIES = 10_000;

export class ReadCache {
  /** While true the stage passes every request on (the property test compares the two). */
  bypass = false;
  private version = -1;
  private readonly entries = new Map<string, CachedAnswer>();

  constructor(private readonly src: CacheSource) {}

  /** The version entries are valid for, or undefined while a transaction is open. */
  private current(): number | undefined {
    if (this.src.inTransaction()) return undefined;
    const v = this.src.changes();
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
    if (a && a.at !== undefined && a.at !== this.src.now()) return undefined;
    return a;
  }

  put(partnerId: string, target: string, answer: CachedAnswer): void {
    if (this.current() === undefined) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(`${partnerId}\u0000${target}`, answer);
  }
}

/** The cache as a stage just before the route (inside the plugins'): a keyed GET it holds is answered here, anything else goes on. */
export function readCacheStage(cache: ReadCache): FrontStage {
  return (req) => {
    if (req.method !== 'GET' || req.partner === undefined || !cache.size || cache.bypass) return undefined;
    const a = cache.get(req.partner.partnerId, req.target)?.answer;
    // A copy of the headers: the stages outside add theirs in place (the limiter's), and the
    // entry must stay the core's answer alone for the next caller.
    return a && { status: a.status, headers: { ...a.headers }, body: a.body };
  };
}

/**
 * The entry for an answer of the core: its status and body, the headers its answer gets
 * (endpoints/route.ts: JSON_TYPE) with the length counted once, as one Answer served as is.
 * The body stays text: node:http sends text in one write with the head, bytes as a second
 * chunk of a writev, and with bytes a cached GET was 2-3 % more CPU than 7d0bed6's (which kept
 * text), measured side by side in one process (BENCHMARKS.md, session 14).
 */
export function cachedAnswer(status: number, text: string, at?: number): CachedAnswer {
  const answer: Answer = { status, headers: { 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(text)) }, body: text };
  return at !== undefined ? { answer, at } : { answer };
}
