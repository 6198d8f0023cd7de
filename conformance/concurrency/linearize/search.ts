import type { Exchanges, TimedExchange } from '../exchanges.ts';
import { hull, initialState, interpret, positionsKey, stateKey, type Interpreted, type ModelOptions, type Outcome, type State } from './model.ts';

// Wing & Gong's search with Lowe's memo, as Porcupine and Knossos run it: walk the list of call
// and return events; at a call, try to linearize that operation now (the model allows its
// answer from the current state), lift it and its return out of the list and start again from
// the head; at a return whose call is not yet linearized, nothing placed so far explains it, so
// undo the last choice. A (linearized set, model state) pair seen before is not explored twice.
// Written here rather than taken from a library: no maintained JavaScript port exists, and the
// model's nondeterminism (a set of states, Porcupine's NondeterministicModel) is ours to define.

interface Node {
  call: boolean;
  /** Index into the checked operations. */
  op: number;
  time: number;
  /** The call's return node. */
  match?: Node;
  prev?: Node;
  next?: Node;
}

export interface Placed {
  op: TimedExchange;
  info: Interpreted;
  /** Relaxed: its answer set aside ("may or may not have happened"), while minimising. */
  relaxed: boolean;
}

export interface SearchResult {
  linearizable: boolean;
  /** The search hit its budget before deciding. */
  exhausted: boolean;
  steps: number;
  /** The deepest partial order found, by index of `placed`. */
  deepest: number[];
  /** The model states after `deepest`. */
  deepestStates: State[];
  /** At the deepest point, each operation that could come next and why the model refused it. */
  refusals: Array<{ op: number; reason: string }>;
}

const INF = Number.POSITIVE_INFINITY;

/** The model's state set after one step from each state of a set (empty: the answer is impossible). */
export function stepAll(o: ModelOptions, states: State[], p: Placed): { states: State[]; reason?: string } {
  // Keyed by positions: states with the same positions are merged into their hull (see hull()).
  const out = new Map<string, State>();
  let reason: string | undefined;
  const outcome: Outcome = p.relaxed ? { kind: 'unknown' } : p.info.outcome;
  for (const s of states) {
    const r = p.info.apply(o, s, outcome);
    for (const t of r.states) {
      const k = positionsKey(t);
      const had = out.get(k);
      out.set(k, had ? hull(had, t) : t);
    }
    reason ??= r.reason;
  }
  return { states: [...out.values()], ...(out.size ? {} : { reason: reason ?? 'the model allows no such answer here' }) };
}

const setKey = (states: State[]) => states.map(stateKey).sort().join('\n');

export function search(o: ModelOptions, placed: Placed[], maxSteps = 200_000): SearchResult {
  // Events in time order; a call before a return at the same instant (they overlap), and an
  // operation with no answer (or relaxed) returns at infinity: it may take effect at any later time.
  const events: Node[] = [];
  placed.forEach((p, i) => {
    // A read set aside changes nothing whenever it happens: leave it out of the walk.
    if (p.relaxed && p.op.kind === 'read') return;
    // An answer set aside keeps its real-time window: whatever it did, it did between its invoke
    // and its answer, so the relaxation only allows more, and the search stays as narrow.
    const ret: Node = { call: false, op: i, time: p.op.complete === undefined ? INF : p.op.complete };
    events.push({ call: true, op: i, time: p.op.invoke, match: ret }, ret);
  });
  events.sort((a, b) => a.time - b.time || (a.call === b.call ? a.op - b.op : a.call ? -1 : 1));
  const head: Node = { call: false, op: -1, time: -INF };
  let prev = head;
  for (const e of events) {
    prev.next = e;
    e.prev = prev;
    prev = e;
  }
  const lift = (n: Node) => {
    n.prev!.next = n.next;
    if (n.next) n.next.prev = n.prev;
    const m = n.match!;
    m.prev!.next = m.next;
    if (m.next) m.next.prev = m.prev;
  };
  const unlift = (n: Node) => {
    const m = n.match!;
    m.prev!.next = m;
    if (m.next) m.next.prev = m;
    n.prev!.next = n;
    if (n.next) n.next.prev = n;
  };

  let states: State[] = [initialState(o)];
  let linearized = 0n;
  const seen = new Set<string>();
  const calls: Array<{ node: Node; states: State[] }> = [];
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
      const r = stepAll(o, states, placed[entry.op]!);
      if (r.states.length) {
        const bits = linearized | (1n << BigInt(entry.op));
        const key = `${bits.toString(36)}#${setKey(r.states)}`;
        if (!seen.has(key)) {
          seen.add(key);
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

export interface Checked {
  /** Operations the model reads; the rest (kinds it does not model) are listed in `ignored`. */
  placed: Placed[];
  ignored: TimedExchange[];
}

export function place(o: ModelOptions, history: Exchanges): Checked {
  const placed: Placed[] = [];
  const ignored: TimedExchange[] = [];
  for (const op of history) {
    const info = interpret(o.profile, op);
    if (info) placed.push({ op, info, relaxed: false });
    else ignored.push(op);
  }
  return { placed, ignored };
}
