import { lanes, letter } from './lanes.ts';
import type { History, Model } from './model.ts';

// A failure as a person reads it, in the model's own words: the answers that conflict on a
// timeline, where the model starts, the longest order it allows, and why it refuses each
// operation that could come next; then the whole partition when it is small enough to read.

/** Up to this many operations, a failure also shows the whole partition. */
const WHOLE_MAX = 40;

/** A shrunk failure in one partition; operations by index into `part`. */
export interface Conflict<S, I, O> {
  part: History<I, O>;
  /** The operations whose outputs conflict. */
  kept: number[];
  setAside: number;
  /** The longest order the model allows of what was kept, and the states after it. */
  order: number[];
  states: S[];
  refusals: Array<{ op: number; reason: string }>;
}

export function witnessText<S, I, O>(model: Model<S, I, O>, c: Conflict<S, I, O>) {
  const name = new Map(c.kept.map((op, i) => [op, letter(i)]));
  const nameOf = (op: number) => name.get(op) ?? `#${c.part[op]!.id}`;
  const ref = (op: number) => {
    const d = model.describe.operation(c.part[op]!.input, c.part[op]!.output);
    return `${nameOf(op)} (${d.call} → ${d.answer})`;
  };
  const kept = c.kept.map((i) => c.part[i]!);
  const aside = c.setAside ? `, whatever the other ${c.setAside} operations of the history did` : '';
  const n = c.states.length;
  const text = [
    kept.length === 1 ? `This answer cannot be true in any order real time allows${aside}:` : `These ${kept.length} answers cannot all be true in any order real time allows${aside}:`,
    '',
    lanes(model, kept),
    '',
    `start: ${model.describe.state(model.init())}`,
    c.order.length ? `The longest order the model allows: ${c.order.map(nameOf).join(', ')}; the model then holds ${model.describe.state(c.states[0]!)}${n > 1 ? ` (or one of ${n} such states)` : ''}.` : 'No operation can come first.',
    ...(c.refusals.length ? ['Each operation that could come next is refused:', ...c.refusals.map((r) => `  ${nameOf(r.op)}: ${r.reason}`)] : []),
    // The whole partition for context, when it is small enough to read.
    ...(c.setAside && c.part.length <= WHOLE_MAX
      ? ['', `The whole history (${c.part.length} operations; the letters above are #${kept.map((o) => o.id).join(', #')} here):`, '', lanes(model, c.part, (i) => `#${c.part[i]!.id}`)]
      : []),
  ].join('\n');
  const summary = c.refusals.length ? `${c.refusals[0]!.reason}; conflicting answers: ${c.kept.map(ref).join(', ')}` : `no order of ${c.kept.map(ref).join(', ')} is allowed by the model`;
  return { operations: kept, setAside: c.setAside, text, summary };
}
