import type { Exchanges, TimedExchange } from '../exchanges.ts';
import { showFunds, type ModelOptions } from './model.ts';
import { place, search, type Placed } from './search.ts';
import { lanes, letter, showState } from './timeline.ts';

// The linearizability check of one history: is there an order of its operations, consistent
// with real time, that the ledger model allows? On a failure, the witness is made small: each
// answer in turn is set aside ("it may or may not have happened, with any result") and stays
// aside when the rest still cannot be ordered. Setting an answer aside only allows more, so
// what remains is a set of answers that cannot all be true, whatever the others did.

/** Up to this many operations, a failure also shows the whole history. */
const WHOLE_MAX = 40;

export interface Verdict {
  linearizable: boolean;
  /** The search ran out of budget: neither verdict holds (a check must not fail on it). */
  inconclusive: boolean;
  operations: number;
  /** Operations of kinds the model does not read. */
  ignored: TimedExchange[];
  steps: number;
  /** On a failure: the smallest set of conflicting answers found. */
  witness?: {
    operations: TimedExchange[];
    setAside: number;
    /** A timeline and the model's reasoning, for a person. */
    text: string;
    /** One line: what conflicts, for a failure's "received". */
    summary: string;
  };
}

export interface CheckOptions {
  /** Search steps per search (the minimisation runs one search per operation). */
  maxSteps?: number;
  /** Skip the minimisation (it costs one search per operation). */
  minimise?: boolean;
  /** Real time the minimisation may take; past it, the witness is what was cut so far (still a conflict, maybe not the smallest). */
  minimiseMs?: number;
}

export function checkHistory(history: Exchanges, model: ModelOptions, opts: CheckOptions = {}): Verdict {
  const maxSteps = opts.maxSteps ?? 200_000;
  const { placed, ignored } = place(model, history);
  const first = search(model, placed, maxSteps);
  let steps = first.steps;
  const base = { operations: placed.length, ignored };
  if (first.linearizable) return { linearizable: true, inconclusive: false, steps, ...base };
  if (first.exhausted) return { linearizable: false, inconclusive: true, steps, ...base };
  if (opts.minimise !== false) {
    // Delta debugging (Zeller's ddmin, one-sided): set aside a chunk of answers at once while
    // the rest still conflict, halving the chunk when it does not; later answers first, since a
    // conflict usually shows at its latest observation and keeping the earliest keeps its cause.
    let todo = placed.filter((p) => p.info.outcome.kind !== 'unknown').reverse();
    let size = Math.max(1, Math.ceil(todo.length / 2));
    const deadline = performance.now() + (opts.minimiseMs ?? 3_000);
    for (;;) {
      const left: Placed[] = [];
      for (let i = 0; i < todo.length; i += size) {
        if (performance.now() > deadline) {
          left.push(...todo.slice(i));
          break;
        }
        const chunk = todo.slice(i, i + size);
        for (const p of chunk) p.relaxed = true;
        const r = search(model, placed, maxSteps);
        steps += r.steps;
        if (r.linearizable || r.exhausted) {
          for (const p of chunk) p.relaxed = false;
          left.push(...chunk);
        }
      }
      todo = left;
      if (size === 1 || !todo.length || performance.now() > deadline) break;
      size = Math.ceil(size / 2);
    }
  }
  const final = search(model, placed, maxSteps);
  steps += final.steps;
  const kept = placed.filter((p) => !p.relaxed && p.info.outcome.kind !== 'unknown');
  const setAside = placed.length - kept.length;
  const name = new Map(kept.map((p, i) => [p, letter(i)]));
  const ref = (p: Placed) => `${name.get(p) ?? `#${p.op.id}`} (${p.info.label} → ${p.info.answer})`;
  const start = Object.keys(model.start ?? {}).length
    ? `start: ${Object.entries(model.start!).map(([a, v]) => `${a} available ${showFunds({ lo: v, hi: v, hiOpen: false })}`).join('; ')}`
    : 'start: available funds unknown';
  const order = final.deepest.map((i) => placed[i]!).filter((p) => !p.relaxed);
  const refused = final.refusals.map((r) => ({ p: placed[r.op]!, reason: r.reason }));
  const aside = setAside ? `, whatever the other ${setAside} operations of the history did` : '';
  const all = placed.filter((p) => p.op.kind !== 'read' || p.info.outcome.kind !== 'no-effect');
  const text = [
    kept.length === 1 ? `This answer cannot be true in any order real time allows${aside}:` : `These ${kept.length} answers cannot all be true in any order real time allows${aside}:`,
    '',
    lanes(kept, (i) => letter(i)),
    '',
    start,
    order.length ? `The longest order the model allows: ${order.map((p) => name.get(p) ?? `#${p.op.id}`).join(', ')}; the model then holds ${showState(final.deepestStates[0]!)}${final.deepestStates.length > 1 ? ` (or one of ${final.deepestStates.length} such states)` : ''}.` : 'No operation can come first.',
    ...(refused.length ? ['Each operation that could come next is refused:', ...refused.map((r) => `  ${name.get(r.p) ?? `#${r.p.op.id}`}: ${r.reason}`)] : []),
    // The whole history for context, when it is small enough to read.
    ...(setAside && all.length <= WHOLE_MAX ? ['', `The whole history (${all.length} operations; the letters above are #${kept.map((p) => p.op.id).join(', #')} here):`, '', lanes(all, (i) => `#${all[i]!.op.id}`)] : []),
  ].join('\n');
  const summary = refused.length ? `${refused[0]!.reason}; conflicting answers: ${kept.map(ref).join(', ')}` : `no order of ${kept.map(ref).join(', ')} is allowed by the model`;
  return { linearizable: false, inconclusive: false, steps, ...base, witness: { operations: kept.map((p) => p.op), setAside, text, summary } };
}
