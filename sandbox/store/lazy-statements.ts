import type { Database, Statement } from 'better-sqlite3';

// Statements prepared on first use. The engine, the webhook dispatcher and the report prepare
// ~80 statements when a sandbox starts, most of which a partner's test never runs: preparing
// them was a third of an in-process sandbox's set-up (bench/partner-ways.ts, V8 CPU profile),
// and finalising them a part of its close. A database opened with `preparesLazily` hands out
// a Statement that compiles its SQL the first time it is run, read or asked about, and from
// then on is that statement (its run/get/all/iterate are the real statement's own, bound). No
// caller changes: each keeps preparing at construction as before. What differs is only when a
// malformed SQL text would throw, and every text here is a constant the tests run.

type AnyStatement = Statement<unknown[], unknown>;
type Mode = 'pluck' | 'raw' | 'expand' | 'safeIntegers';

class LazyStatement {
  private real: AnyStatement | undefined;
  // Mode switches asked for before the first use, replayed in order on the real statement
  // (better-sqlite3 makes pluck/raw/expand exclusive: the last one asked wins, as here).
  private readonly modes: Array<[Mode, boolean | undefined]> = [];

  constructor(
    private readonly compile: (sql: string) => AnyStatement,
    readonly database: Database,
    readonly source: string,
  ) {}

  private now(): AnyStatement {
    if (this.real) return this.real;
    const s = this.compile(this.source);
    for (const [mode, on] of this.modes) toggle(s, mode, on);
    this.real = s;
    // From now on the hot calls go straight to the statement.
    this.run = s.run.bind(s);
    this.get = s.get.bind(s);
    this.all = s.all.bind(s);
    this.iterate = s.iterate.bind(s);
    return s;
  }

  run(...p: unknown[]) {
    return this.now().run(...p);
  }
  get(...p: unknown[]) {
    return this.now().get(...p);
  }
  all(...p: unknown[]) {
    return this.now().all(...p);
  }
  iterate(...p: unknown[]) {
    return this.now().iterate(...p);
  }
  columns() {
    return this.now().columns();
  }
  bind(...p: unknown[]): this {
    this.now().bind(...p);
    return this;
  }
  get reader(): boolean {
    return this.now().reader;
  }
  get readonly(): boolean {
    return this.now().readonly;
  }
  get busy(): boolean {
    return this.real?.busy ?? false;
  }
  pluck(on?: boolean): this {
    return this.mode('pluck', on);
  }
  raw(on?: boolean): this {
    return this.mode('raw', on);
  }
  expand(on?: boolean): this {
    return this.mode('expand', on);
  }
  safeIntegers(on?: boolean): this {
    return this.mode('safeIntegers', on);
  }

  private mode(m: Mode, on: boolean | undefined): this {
    if (this.real) toggle(this.real, m, on);
    else this.modes.push([m, on]);
    return this;
  }
}

// better-sqlite3 refuses an explicit undefined: no argument means "on".
function toggle(s: AnyStatement, m: Mode, on: boolean | undefined): void {
  if (on === undefined) s[m]();
  else s[m](on);
}

/** Makes `db.prepare` hand out statements that compile on first use (see above). */
export function preparesLazily<D extends Database>(db: D): D {
  const compile = db.prepare.bind(db) as (sql: string) => AnyStatement;
  db.prepare = ((sql: string) => new LazyStatement(compile, db, sql)) as unknown as D['prepare'];
  return db;
}
