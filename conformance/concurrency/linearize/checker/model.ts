// What the linearizability checker knows, all of it: an operation is a call with its input and
// a return with its output, and a model is a partition, an initial state, a step and a way to
// describe both. This is Porcupine's shape (anishathalye/porcupine, model.go); a system's
// models (the ledger, a register in the tests) live elsewhere and are handed to the checker.

/** One operation of a history, in the model's words: no HTTP. */
export interface Operation<I, O> {
  /** Stable for reports: whoever built the history maps it back to what was observed. */
  id: number;
  /** The logical client (one concurrent caller); only for drawing. */
  client: number;
  input: I;
  /** When the call was made (any clock; only the order matters). */
  call: number;
  output: O;
  /** When the answer came; Infinity when none did: it may take effect any time after its call. */
  return: number;
}

export type History<I, O> = Array<Operation<I, O>>;

/**
 * One step of the model: every state the operation may lead to (more than one where the system
 * may act on its own or the output leaves it open, Porcupine's NondeterministicModel), or none,
 * then with the reason the model refuses it, for a person reading a failure.
 */
export interface Step<S> {
  states: S[];
  /** Why no state allows the output (when `states` is empty). */
  reason?: string;
}

/** An operation's output set aside while shrinking a failure ("it may or may not have happened"). */
export type SetAside<O> =
  /** The output that claims nothing of what the operation did; its real-time window stays. */
  | { output: O }
  /** Whatever such an operation did, it changed nothing: leave it out of the search. */
  | 'omit';

export interface Model<S, I, O> {
  /** Groups of operations such that the history is linearizable if and only if each group is. */
  partition(history: History<I, O>): Array<History<I, O>>;
  init(): S;
  /** Pure: never mutates the state, the input or the output. */
  step(state: S, input: I, output: O): Step<S>;
  /**
   * Equal for equal states (Porcupine's Equal, as a string so the search can memoise and
   * de-duplicate by it). Absent: JSON.stringify of the state.
   */
  key?(state: S): string;
  /**
   * A smaller set of states allowing at least everything `states` allows. Only for speed: a
   * model whose steps multiply states (outputs set aside, each doubling them) keeps the set small.
   */
  compact?(states: S[]): S[];
  /**
   * How to set an output aside when shrinking a failure to the answers that conflict; undefined
   * when it already claims nothing (no answer came), so it is never part of a conflict. Absent:
   * failures are not shrunk.
   */
  setAside?(input: I, output: O): SetAside<O> | undefined;
  describe: {
    /** The operation as a person names it ("withdraw 600 USDC") and its answer ("202 accepted"). */
    operation(input: I, output: O): { call: string; answer: string };
    state(state: S): string;
  };
}
