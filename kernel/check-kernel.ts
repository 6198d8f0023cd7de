import type { Advisory, CheckResult, DeliveryRecord, Exchange, Reproduction, SkipKind } from './results.ts';
import type { Need } from './needs.ts';

// The one check kernel, in the Schemathesis style: a check is a small named function with
// one signature, `(ctx) => Promise<Outcome>`, kept in a registry keyed by its id. Conformance,
// certify and validate each bring their own context; the kernel turns outcomes into the
// results format (kernel/results.ts). An outcome is only ever built by the constructors
// below, so a check cannot "fail" by returning something else (a note, undefined): the
// kernel calls that a kernel error, a bug in lendcheck, never a verdict on the target.

const TEXT: unique symbol = Symbol('lendcheck.text');
/** A non-empty string with no stray `undefined` in it: built only through text(). */
export type Text = string & { readonly [TEXT]: true };

/** A bug in lendcheck (a check broke the kernel's rules), never a verdict on the target. */
export class KernelError extends Error {
  override name = 'KernelError';
}

// `undefined` outside a JSON string literal can only come from interpolating a missing value;
// inside quotes it is the target's own text (show() quotes what it renders).
const QUOTED = /"(?:[^"\\]|\\.)*(?:"|$)/g;
const BARE_UNDEFINED = /\bundefined\b/;

export function text(value: unknown, what = 'text'): Text {
  if (typeof value !== 'string') throw new KernelError(`${what} must be a string, got ${value === null ? 'null' : typeof value}`);
  if (value.trim() === '') throw new KernelError(`${what} must not be empty`);
  if (BARE_UNDEFINED.test(value.replace(QUOTED, '""'))) throw new KernelError(`${what} holds a missing value: ${JSON.stringify(value)}`);
  return value as Text;
}

export const isText = (v: unknown): v is Text => {
  try {
    text(v);
    return true;
  } catch {
    return false;
  }
};

/** A value as it reads in "received …": JSON, shortened; an absent value reads "(absent)". */
export function show(v: unknown): string {
  if (v === undefined) return '(absent)';
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
}

/**
 * What a failure adds to its reproduction beyond the exchanges the check made: the seed and
 * shrunk input of a generated case, webhook deliveries, a timeline as text, values the reader
 * supplies as variables; or the exchanges themselves, when only some of the check's show it
 * (a property check's shrunk case rather than every case it tried).
 */
export interface FailureDetail {
  seed?: number;
  input?: string;
  deliveries?: DeliveryRecord[];
  timeline?: string;
  vars?: Record<string, string>;
  exchanges?: Exchange[];
}

export interface Failure {
  readonly title: Text;
  readonly expected: Text;
  readonly received: Text;
  readonly exchange?: Exchange;
  readonly detail?: FailureDetail;
}

const OUTCOME: unique symbol = Symbol('lendcheck.outcome');
interface Branded {
  readonly [OUTCOME]: true;
  /** Observations that do not change the verdict. */
  readonly notes: readonly string[];
}
export interface Pass extends Branded {
  readonly kind: 'pass';
  /** The exchange that shows the rule held, when one does. */
  readonly exchange?: Exchange;
}
export interface Fail extends Branded {
  readonly kind: 'fail';
  readonly failures: readonly [Failure, ...Failure[]];
}
export interface Skip extends Branded {
  readonly kind: 'skip';
  readonly reason: Text;
  /** What kind of reason (results.ts skipKind): an unaffordable skip keeps the part from passing. */
  readonly reasonKind: SkipKind;
}
export type Outcome = Pass | Fail | Skip;

export const isOutcome = (v: unknown): v is Outcome => typeof v === 'object' && v !== null && (v as Partial<Branded>)[OUTCOME] === true;

export function failure(title: string, expected: string, received: string, exchange?: Exchange, detail?: FailureDetail): Failure {
  return { title: text(title, 'a failure title'), expected: text(expected, 'a failure "expected"'), received: text(received, 'a failure "received"'), ...(exchange ? { exchange } : {}), ...(detail ? { detail } : {}) };
}

export const pass = (o: { notes?: readonly string[]; exchange?: Exchange } = {}): Pass => ({ [OUTCOME]: true, kind: 'pass', notes: o.notes ?? [], ...(o.exchange ? { exchange: o.exchange } : {}) });
export const skip = (reason: string, notes: readonly string[] = [], reasonKind: SkipKind = 'not-observed'): Skip => ({ [OUTCOME]: true, kind: 'skip', reason: text(reason, 'a skip reason'), reasonKind, notes });
export function failed(first: Failure, ...more: Failure[]): Fail {
  return { [OUTCOME]: true, kind: 'fail', failures: [first, ...more], notes: [] };
}
export const withNotes = <O extends Outcome>(o: O, notes: readonly string[]): O => ({ ...o, notes: [...o.notes, ...notes] });

/** Thrown by helpers (expectStatus …) to stop a check at its first broken rule; the kernel catches it. */
export class CheckFailure extends Error implements Failure {
  readonly title: Text;
  readonly expected: Text;
  readonly received: Text;
  constructor(title: string, expected: string, received: string, readonly exchange?: Exchange, readonly detail?: FailureDetail) {
    const f = failure(title, expected, received);
    super(`${f.title}: expected ${f.expected} / received ${f.received}`);
    this.title = f.title;
    this.expected = f.expected;
    this.received = f.received;
  }
}

/**
 * Thrown when a check finds at run time that it cannot apply; the message is the reason and
 * `kind` what kind of reason it is (results.ts skipKind). A skip lendcheck could not afford
 * (rate-limit room, time) must say so with 'unaffordable': it makes the part incomplete.
 */
export class CheckSkip extends Error {
  constructor(
    reason: string,
    readonly kind: SkipKind = 'not-observed',
  ) {
    super(text(reason, 'a skip reason'));
  }
}

/** A skip lendcheck could not afford (rate-limit room, a time or search budget): the part is incomplete. */
export const unaffordable = (reason: string): CheckSkip => new CheckSkip(reason, 'unaffordable');

export interface Check<Ctx> {
  /** Stable id: the registry key, what reports and --only name. */
  readonly id: string;
  /** Reads as a sentence: what holds when the check passes. */
  readonly title: string;
  readonly requirements: readonly string[];
  /** What the target or the run must offer; see kernel/needs.ts. */
  readonly needs?: readonly Need[];
  run(ctx: Ctx): Promise<Outcome>;
}

const ID = /^[a-z0-9][\w.-]*$/i;

export class CheckRegistry<C extends Check<never>> {
  private readonly byId = new Map<string, C>();

  constructor(checks: Iterable<C> = []) {
    for (const c of checks) this.add(c);
  }

  add(c: C): this {
    if (!ID.test(c.id)) throw new KernelError(`check id ${JSON.stringify(c.id)} is not a name`);
    if (this.byId.has(c.id)) throw new KernelError(`duplicate check id ${c.id}`);
    text(c.title, `the title of check ${c.id}`);
    this.byId.set(c.id, c);
    return this;
  }

  get(id: string): C | undefined {
    return this.byId.get(id);
  }

  get size(): number {
    return this.byId.size;
  }

  ids(): string[] {
    return [...this.byId.keys()];
  }

  list(): C[] {
    return [...this.byId.values()];
  }

  /** The checks `only` names (exact ids, or prefixes ending in *), in registry order; all without `only`. */
  select(only?: readonly string[]): C[] {
    if (!only?.length) return this.list();
    return this.list().filter((c) => only.some((o) => (o.endsWith('*') ? c.id.startsWith(o.slice(0, -1)) : c.id === o)));
  }

  /** Entries of `only` that name no check. */
  unknown(only: readonly string[]): string[] {
    return only.filter((o) => !this.select([o]).length);
  }
}

export interface RunCheckOptions {
  /** A reason not to run the check at all (an unmet need). */
  skip?: string;
  /** The kind of that reason (kernel/needs.ts skipKindFor). */
  skipKind?: SkipKind;
  /** Notes the context collected while the check ran (ctx.note). */
  notes?: string[];
  /** Advice the context collected while the check ran (ctx.advise): read when the check ends. */
  advisories?: Advisory[];
  /** The exchange a failure shows when it names none (the check's last). */
  lastExchange?: () => Exchange | undefined;
  /** Every exchange the check made so far, in order: a failure's reproduction. */
  exchanges?: () => Exchange[];
  /** Turns an error a check threw into an outcome (e.g. a transport error); undefined: not handled. */
  classify?: (e: unknown) => Outcome | undefined;
}

const MAX_LISTED = 20;

export function describeOutcomeValue(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (typeof v === 'object') return `an object with keys ${JSON.stringify(Object.keys(v))}`;
  return `${typeof v} ${JSON.stringify(v)}`;
}

const INTERNAL: unique symbol = Symbol('lendcheck.internal');

function fromThrown(e: unknown, classify: RunCheckOptions['classify']): Outcome {
  if (e instanceof KernelError) throw e;
  if (e instanceof CheckFailure) return failed(e);
  if (e instanceof CheckSkip) return skip(e.message, [], e.kind);
  const classified = classify?.(e);
  if (classified) return classified;
  // Anything else is a bug of lendcheck's (a check that broke on an answer it did not foresee):
  // said so, with its stack kept apart for whoever fixes it, and never shown as the target's fault.
  const message = e instanceof Error ? e.message : String(e);
  const stack = e instanceof Error ? (e.stack ?? e.message) : String(e);
  return Object.assign(failed(failure('the check ran to its end (lendcheck crashed: an internal error, not a verdict on the target)', 'no error', `an error ${show(message)}`)), { [INTERNAL]: stack });
}

/** Runs one check and gives its result; throws KernelError when the check broke the kernel's rules. */
export async function runCheck<Ctx>(check: Check<Ctx>, ctx: Ctx, opts: RunCheckOptions = {}): Promise<CheckResult> {
  const base = { id: check.id, title: check.title, requirements: [...check.requirements] };
  if (opts.skip !== undefined) return { ...base, status: 'skipped', durationMs: 0, message: text(opts.skip, `the skip reason of ${check.id}`), skipKind: opts.skipKind ?? 'run-lacks', notes: [] };
  const t0 = performance.now();
  let out: unknown;
  try {
    out = await check.run(ctx);
  } catch (e) {
    out = fromThrown(e, opts.classify);
  }
  if (!isOutcome(out)) throw new KernelError(`check ${check.id} returned ${describeOutcomeValue(out)} instead of an outcome (pass, fail or skip): a lendcheck bug, not a verdict on the target`);
  const durationMs = Math.round((performance.now() - t0) * 10) / 10;
  const internal = (out as { [INTERNAL]?: string })[INTERNAL];
  const r0 = toResult(base, out, { durationMs, notes: [...(opts.notes ?? []), ...out.notes], lastExchange: opts.lastExchange, exchanges: opts.exchanges });
  const r = opts.advisories?.length ? { ...r0, advisories: [...opts.advisories] } : r0;
  return internal ? { ...r, internalError: internal } : r;
}

export function failureMessage(f: Failure): Text {
  return text(`${f.title}: expected ${f.expected} / received ${f.received}`);
}

/** Exchanges kept in a reproduction: the first few (the setup) and the last ones (up to the failure). */
export const REPRO_HEAD = 5;
export const REPRO_TAIL = 45;

export function reproductionOf(f: Failure, all: Exchange[] = []): Reproduction {
  const d = f.detail ?? {};
  let xs = d.exchanges ?? all;
  // A failure's own exchange closes the list when the check made it elsewhere (a delivery, a receiver's view).
  if (f.exchange && !xs.includes(f.exchange) && !d.exchanges) xs = [...xs, f.exchange];
  const omitted = Math.max(0, xs.length - REPRO_HEAD - REPRO_TAIL);
  return {
    exchanges: omitted ? [...xs.slice(0, REPRO_HEAD), ...xs.slice(xs.length - REPRO_TAIL)] : xs,
    omitted,
    vars: d.vars ?? {},
    ...(d.seed !== undefined ? { seed: d.seed } : {}),
    ...(d.input !== undefined ? { input: d.input } : {}),
    deliveries: d.deliveries ?? [],
    ...(d.timeline ? { timeline: d.timeline } : {}),
  };
}

function toResult(base: Pick<CheckResult, 'id' | 'title' | 'requirements'>, out: Outcome, o: { durationMs: number; notes: string[]; lastExchange?: () => Exchange | undefined; exchanges?: () => Exchange[] }): CheckResult {
  const common = { ...base, durationMs: o.durationMs, notes: o.notes };
  switch (out.kind) {
    case 'pass':
      return { ...common, status: 'passed', ...(out.exchange ? { exchange: out.exchange } : {}) };
    case 'skip':
      return { ...common, status: 'skipped', message: out.reason, skipKind: out.reasonKind };
    case 'fail': {
      const lines = out.failures.slice(0, MAX_LISTED).map(failureMessage);
      if (out.failures.length > MAX_LISTED) lines.push(text(`… and ${out.failures.length - MAX_LISTED} more`));
      const exchange = out.failures.find((f) => f.exchange)?.exchange ?? o.lastExchange?.();
      const first = out.failures.find((f) => f.exchange || f.detail) ?? out.failures[0];
      const reproduction = reproductionOf(first, o.exchanges?.() ?? []);
      const hasRepro = reproduction.exchanges.length || reproduction.deliveries.length || reproduction.timeline || reproduction.input !== undefined;
      return { ...common, status: 'failed', message: lines.join('\n'), ...(exchange ? { exchange } : {}), ...(hasRepro ? { reproduction } : {}) };
    }
  }
}
