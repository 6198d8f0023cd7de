import type { History, Model, Operation } from './model.ts';
import { search, type SearchResult } from './search.ts';
import { witnessText, type Conflict } from './witness.ts';

// The linearizability check of a history against any model: is there an order of each
// partition's operations, consistent with real time, that the model allows? On a failure the
// witness is made small: each output in turn is set aside (the model says how: "it may or may
// not have happened") and stays aside when the rest still cannot be ordered. Setting an output
// aside only allows more, so what remains is a set of answers that cannot all be true, whatever
// the others did.

export interface Verdict<I, O> {
  linearizable: boolean;
  /** The search ran out of budget: neither verdict holds (a check must not fail on it). */
  inconclusive: boolean;
  operations: number;
  steps: number;
  /** On a failure: the smallest set of conflicting operations found, in one partition. */
  witness?: {
    operations: Array<Operation<I, O>>;
    /** Operations of that partition set aside. */
    setAside: number;
    /** A timeline and the model's reasoning, for a person. */
    text: string;
    /** One line: what conflicts, for a failure's "received". */
    summary: string;
  };
}

export interface CheckOptions {
  /** Search steps per search (the shrinking runs one search per chunk of operations). */
  maxSteps?: number;
  /** Skip the shrinking (it costs up to a search per operation). */
  minimise?: boolean;
  /** Real time the shrinking may take; past it, the witness is what was cut so far (still a conflict, maybe not the smallest). */
  minimiseMs?: number;
}

export function check<S, I, O>(model: Model<S, I, O>, history: History<I, O>, opts: CheckOptions = {}): Verdict<I, O> {
  const maxSteps = opts.maxSteps ?? 200_000;
  let steps = 0;
  let exhausted = false;
  for (const part of model.partition(history)) {
    const r = search(model, part, maxSteps);
    steps += r.steps;
    if (r.linearizable) continue;
    // Out of budget here, a later partition may still fail for certain.
    if (r.exhausted) exhausted = true;
    else {
      const s = shrink(model, part, maxSteps, opts);
      return { linearizable: false, inconclusive: false, operations: history.length, steps: steps + s.steps, witness: witnessText(model, s) };
    }
  }
  return { linearizable: !exhausted, inconclusive: exhausted, operations: history.length, steps };
}

/** The partition as searched with the operations of `aside` set aside, and each one's index in it. */
function withAside<S, I, O>(model: Model<S, I, O>, part: History<I, O>, aside: Set<number>): { trial: History<I, O>; at: number[] } {
  const trial: History<I, O> = [];
  const at: number[] = [];
  part.forEach((o, i) => {
    const a = aside.has(i) ? model.setAside!(o.input, o.output) : undefined;
    if (a === 'omit') return;
    trial.push(a ? { ...o, output: a.output } : o);
    at.push(i);
  });
  return { trial, at };
}

function shrink<S, I, O>(model: Model<S, I, O>, part: History<I, O>, maxSteps: number, opts: CheckOptions): Conflict<S, I, O> & { steps: number } {
  let steps = 0;
  const aside = new Set<number>();
  // Only what claims something can be set aside or be part of a conflict.
  const telling = part.map((o, i) => (model.setAside && model.setAside(o.input, o.output) !== undefined ? i : -1)).filter((i) => i >= 0);
  if (model.setAside && opts.minimise !== false) {
    // Delta debugging (Zeller's ddmin, one-sided): set aside a chunk of outputs at once while
    // the rest still conflict, halving the chunk when it does not; later ones first, since a
    // conflict usually shows at its latest observation and keeping the earliest keeps its cause.
    let todo = [...telling].reverse();
    let size = Math.max(1, Math.ceil(todo.length / 2));
    const deadline = performance.now() + (opts.minimiseMs ?? 3_000);
    for (;;) {
      const left: number[] = [];
      for (let i = 0; i < todo.length; i += size) {
        if (performance.now() > deadline) {
          left.push(...todo.slice(i));
          break;
        }
        const chunk = todo.slice(i, i + size);
        for (const j of chunk) aside.add(j);
        const r = search(model, withAside(model, part, aside).trial, maxSteps);
        steps += r.steps;
        if (r.linearizable || r.exhausted) {
          for (const j of chunk) aside.delete(j);
          left.push(...chunk);
        }
      }
      todo = left;
      if (size === 1 || !todo.length || performance.now() > deadline) break;
      size = Math.ceil(size / 2);
    }
  }
  const { trial, at } = withAside(model, part, aside);
  const final: SearchResult<S> = search(model, trial, maxSteps);
  steps += final.steps;
  const kept = (model.setAside ? telling : part.map((_, i) => i)).filter((i) => !aside.has(i));
  return {
    steps,
    part,
    kept,
    setAside: part.length - kept.length,
    order: final.deepest.map((i) => at[i]!).filter((i) => !aside.has(i)),
    states: final.deepestStates,
    refusals: final.refusals.map((r) => ({ op: at[r.op]!, reason: r.reason })),
  };
}
