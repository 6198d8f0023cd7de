import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { check } from './check.ts';
import type { History, Model, Operation } from './model.ts';

// The seam: a second model, a set of registers (Porcupine's key-value test, in a few lines),
// checked by the same search as the ledger. Nothing here is the ledger's, and nothing in the
// checker is either.

type Input = { kind: 'write'; key: string; value: string } | { kind: 'read'; key: string };
/** A write's `ok`: undefined when no answer came (it may or may not have happened). */
type Output = { ok?: true; value?: string };

const register: Model<string, Input, Output> = {
  partition(history) {
    const by = new Map<string, History<Input, Output>>();
    for (const op of history) by.set(op.input.key, [...(by.get(op.input.key) ?? []), op]);
    return [...by.values()];
  },
  init: () => '',
  step(s, i, out) {
    if (i.kind === 'write') return { states: out.ok ? [i.value] : [s, i.value] };
    return out.value === s ? { states: [s] } : { states: [], reason: `read ${i.key} saw '${out.value}', but the register holds '${s}'` };
  },
  setAside: (i, out) => (i.kind === 'read' ? 'omit' : out.ok ? { output: {} } : undefined),
  describe: {
    operation: (i, out) => (i.kind === 'write' ? { call: `write ${i.key} '${i.value}'`, answer: out.ok ? 'ok' : 'no answer' } : { call: `read ${i.key}`, answer: `'${out.value}'` }),
    state: (s) => `'${s}'`,
  },
};

let id = 0;
type Op = Operation<Input, Output>;
const write = (client: number, call: number, ret: number, key: string, value: string, ok = true): Op => ({ id: id++, client, input: { kind: 'write', key, value }, call, output: ok ? { ok: true } : {}, return: ok ? ret : Infinity });
const read = (client: number, call: number, ret: number, key: string, value: string): Op => ({ id: id++, client, input: { kind: 'read', key }, call, output: { value }, return: ret });

describe('a register model through the same checker', () => {
  it('overlapping writes and reads that some order explains', () => {
    const h = [write(0, 0, 10, 'x', 'a'), write(1, 1, 9, 'x', 'b'), read(2, 2, 3, 'x', 'b'), read(2, 11, 12, 'x', 'a')];
    expect(check(register, h)).toMatchObject({ linearizable: true, inconclusive: false, operations: 4 });
  });

  it('a write without an answer may have happened or not', () => {
    expect(check(register, [write(0, 0, 0, 'x', 'a', false), read(1, 5, 6, 'x', 'a')]).linearizable).toBe(true);
    expect(check(register, [write(0, 0, 0, 'x', 'a', false), read(1, 5, 6, 'x', '')]).linearizable).toBe(true);
  });

  it('reads that go back in time fail, shrunk to the answers that conflict and named in the model’s words', () => {
    const h = [write(0, 0, 1, 'x', 'a'), write(0, 2, 3, 'x', 'b'), read(1, 4, 5, 'x', 'a'), read(2, 6, 7, 'x', 'b')];
    const v = check(register, h);
    expect(v.linearizable).toBe(false);
    // Whether or not each write happened, both came before the reads: 'a' then 'b' cannot be.
    expect(v.witness!.operations.map((o) => o.id)).toEqual([h[2]!.id, h[3]!.id]);
    expect(v.witness!.setAside).toBe(2);
    expect(v.witness!.summary).toBe(`read x saw 'b', but the register holds 'a'; conflicting answers: A (read x → 'a'), B (read x → 'b')`);
    expect(v.witness!.text).toMatch(/client 1 +\[A=+\]/);
    expect(v.witness!.text).toContain("start: ''");
    expect(v.witness!.text).toMatch(new RegExp(`#${h[1]!.id} +client 0 +write x 'b' +→ ok`));
  });

  it('without setAside a failure is reported whole', () => {
    const { setAside: _, ...plain } = register;
    const h = [write(0, 0, 1, 'x', 'a'), read(1, 2, 3, 'x', 'b')];
    expect(check(plain, h).witness).toMatchObject({ setAside: 0, operations: h });
  });

  it('partitions are checked apart: a conflict on one key names only that key', () => {
    const h = [write(0, 0, 1, 'y', 'a'), read(1, 2, 3, 'y', 'a'), write(2, 0, 1, 'x', 'a'), read(3, 2, 3, 'x', 'z')];
    const v = check(register, h);
    expect(v.linearizable).toBe(false);
    expect(v.witness!.operations.every((o) => o.input.key === 'x')).toBe(true);
    // Each key alone is small: the whole history would cost more search steps than its parts.
    expect(check({ ...register, partition: (x) => [x] }, h).witness!.operations.map((o) => o.input.key)).toEqual(['x']);
  });

  it('over its budget the search is inconclusive, never a failure', () => {
    const h = Array.from({ length: 14 }, (_, i) => write(i, 0, 10, 'x', String(i)));
    h.push(read(99, 11, 12, 'x', 'none'));
    expect(check(register, h, { maxSteps: 20 })).toMatchObject({ linearizable: false, inconclusive: true });
  });
});

describe('the checker', () => {
  it('imports nothing but its own files: it knows models only through checker/model.ts', () => {
    const dir = new URL('.', import.meta.url);
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
      const from = [...readFileSync(new URL(f, dir), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      for (const p of from) expect(`${f} imports ${p}`).toMatch(/ imports \.\/[a-z-]+\.ts$/);
    }
  });
});
