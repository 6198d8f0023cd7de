import type { History, Model } from './model.ts';

// Wing & Gong's search with Lowe's memo, as Porcupine and Knossos run it: walk the list of call
// and return events; at a call, try to linearize that operation now (the model allows its
// output from the current state), lift it and its return out of the list and start again from
// the head; at a return whose call is not yet linearized, nothing placed so far explains it, so
// undo the last choice. A (linearized set, model state) pair seen before is not explored twice.
// Written here rather than taken from a library: no maintained JavaScript port exists, and the
// model's nondeterminism (a set of states, Porcupine's NondeterministicModel) is ours to define.
// It runs over one partition; check.ts splits a history and shrinks a failure.

interface Node {
  call: boolean;
  /** Index into the history searched. */
  op: number;
  time: number;
  /** The call's return node. */
  match?: Node;
  prev?: Node;
  next?: Node;
}

export interface SearchResult<S> {
  linearizable: boolean;
  /** The search hit its budget before deciding. */
  exhausted: boolean;
  steps: number;
  /** The deepest partial order found, by index into the history. */
  deepest: number[];
  /** The model states after `deepest`. */
  deepestStates: S[];
  /** At the deepest point, each operation that could come next and why the model refused it. */
  refusals: Array<{ op: number; reason: string }>;
}

const INF = Number.POSITIVE_INFINITY;

const keyOf = <S, I, O>(model: Model<S, I, O>): ((s: S) => string) => model.key?.bind(model) ?? ((s: S) => JSON.stringify(s));

/** The model's state set after one step from each state of a set (empty: the output is impossible). */
function stepAll<S, I, O>(model: Model<S, I, O>, key: (s: S) => string, states: S[], input: I, output: O): { states: S[]; reason?: string } {
  const out = new Map<string, S>();
  let reason: string | undefined;
  for (const s of states) {
    const r = model.step(s, input, output);
    for (const t of r.states) {
      const k = key(t);
      if (!out.has(k)) out.set(k, t);
    }
    reason ??= r.reason;
  }
  if (!out.size) return { states: [], reason: reason ?? 'the model allows no such output here' };
  const all = [...out.values()];
  return { states: model.compact && all.length > 1 ? model.compact(all) : all };
}

/** Events in time order, linked behind a head: a call before a return at the same instant (they overlap). */
function eventList(history: History<unknown, unknown>): Node {
  const events: Node[] = [];
  history.forEach((o, i) => {
    const ret: Node = { call: false, op: i, time: o.return };
    events.push({ call: true, op: i, time: o.call, match: ret }, ret);
  });
  events.sort((a, b) => a.time - b.time || (a.call === b.call ? a.op - b.op : a.call ? -1 : 1));
  const head: Node = { call: false, op: -1, time: -INF };
  let prev = head;
  for (const e of events) {
    prev.next = e;
    e.prev = prev;
    prev = e;
  }
  return head;
}

function lift(n: Node): void {
  n.prev!.next = n.next;
  if (n.next) n.next.prev = n.prev;
  const m = n.match!;
  m.prev!.next = m.next;
  if (m.next) m.next.prev = m.prev;
}

function unlift(n: Node): void {
  const m = n.match!;
  m.prev!.next = m;
  if (m.next) m.next.prev = m;
  n.prev!.next = n;
  if (n.next) n.next.prev = n;
}

export function search<S, I, O>(model: Model<S, I, O>, history: History<I, O>, maxSteps = 200_000): SearchResult<S> {
  const key = keyOf(model);
  const setKey = (states: S[]) => states.map(key).sort().join('\n');
  const head = eventList(history);
  let states: S[] = [model.init()];
  let linearized = 0n;
  const seen = new Set<string>();
  const calls: Array<{ node: Node; states: S[] }> = [];
  let deepest: number[] = [];
  let deepestStates = states;
  let refusals: Array<{ op: number; reason: string }> = [];
  let refusalsDepth = -1;
  let steps = 0;
  let entry: Node | undefined = head.next;
  const refusedHere: Array<{ op: number; reason: string }> = [];

  while (head.next) {
    if (++steps > maxSteps) return { linearizable: false, exhausted: true, steps, deepest, deepestStates, refusals };
    // The list always ends in a return (each call's return follows it), so the walk meets one first.
    if (!entry) throw new Error('linearize: walked past the last event');
    if (entry.call) {
      const o = history[entry.op]!;
      const r = stepAll(model, key, states, o.input, o.output);
      if (r.states.length) {
        const bits = linearized | (1n << BigInt(entry.op));
        const k = `${bits.toString(36)}#${setKey(r.states)}`;
        if (!seen.has(k)) {
          seen.add(k);
          calls.push({ node: entry, states });
          states = r.states;
          linearized = bits;
          lift(entry);
          refusedHere.length = 0;
          if (calls.length > deepest.length) {
            deepest = calls.map((c) => c.node.op);
            deepestStates = states;
          }
          entry = head.next;
          continue;
        }
      } else refusedHere.push({ op: entry.op, reason: r.reason! });
      entry = entry.next;
    } else {
      // A return whose call is still in the list: every operation that could come next failed.
      if (calls.length === deepest.length && refusedHere.length && refusalsDepth < deepest.length && sameOrder(calls, deepest)) {
        refusals = [...refusedHere];
        refusalsDepth = deepest.length;
      }
      if (!calls.length) return { linearizable: false, exhausted: false, steps, deepest, deepestStates, refusals };
      const top = calls.pop()!;
      refusedHere.length = 0;
      entry = top.node;
      states = top.states;
      linearized &= ~(1n << BigInt(entry.op));
      unlift(entry);
      entry = entry.next;
    }
  }
  return { linearizable: true, exhausted: false, steps, deepest, deepestStates, refusals: [] };
}

function sameOrder(calls: Array<{ node: Node }>, deepest: number[]): boolean {
  return calls.every((c, i) => c.node.op === deepest[i]);
}
