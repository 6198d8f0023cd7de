import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { preparesLazily } from './lazy-statements.ts';

// A lazy statement is the statement it stands for: the same answers, modes asked for before
// its first use applied, and compiled once, on that use (not when prepared).

const dbs: Database.Database[] = [];
const open = () => {
  const db = new Database(':memory:');
  dbs.push(db);
  db.exec('CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, \'x\'), (2, \'y\');');
  return db;
};
afterEach(() => dbs.splice(0).forEach((d) => d.close()));

describe('preparesLazily', () => {
  it('compiles on first use, once, and answers as the eager statement does', () => {
    const db = open();
    const compile = vi.spyOn(db, 'prepare');
    preparesLazily(db);
    const lazy = db.prepare('SELECT a, b FROM t WHERE a >= ? ORDER BY a');
    expect(compile).not.toHaveBeenCalled();
    const eager = open().prepare('SELECT a, b FROM t WHERE a >= ? ORDER BY a');
    expect(lazy.all(1)).toEqual(eager.all(1));
    expect(lazy.get(2)).toEqual(eager.get(2));
    expect([...lazy.iterate(1)]).toEqual([...eager.iterate(1)]);
    expect(lazy.reader).toBe(true);
    expect(lazy.source).toBe(eager.source);
    expect(lazy.columns().map((c) => c.name)).toEqual(['a', 'b']);
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it('applies the modes asked for before the first use, in order, and after it at once', () => {
    const db = preparesLazily(open());
    expect(db.prepare('SELECT b FROM t ORDER BY a').pluck().all()).toEqual(['x', 'y']);
    expect(db.prepare('SELECT a, b FROM t ORDER BY a').raw(true).all()).toEqual([[1, 'x'], [2, 'y']]);
    // pluck, raw and expand are exclusive: the last asked wins, as on the real statement.
    expect(db.prepare('SELECT a, b FROM t ORDER BY a').pluck().raw().get()).toEqual([1, 'x']);
    const s = db.prepare('SELECT b FROM t WHERE a = ?');
    expect(s.get(1)).toEqual({ b: 'x' });
    expect(s.pluck().get(1)).toBe('x');
    expect(s.pluck(false).get(2)).toEqual({ b: 'y' });
  });

  it('writes, and throws a bad text on its first use', () => {
    const db = preparesLazily(open());
    expect(db.prepare('INSERT INTO t VALUES (?, ?)').run(3, 'z').changes).toBe(1);
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(3);
    const bad = db.prepare('SELECT nope FROM t');
    expect(() => bad.get()).toThrow(/no such column: nope/);
  });
});
