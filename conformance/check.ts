import type { z } from 'zod';
import type { CallInput, PartnerEndpointId, Profile } from '../contract/index.ts';
import type { Call } from './call.ts';
import type { AnswerRules } from './answer-rules.ts';
import type * as results from '../kernel/results.ts';
import type { HttpClient, Reply, RequestSpec } from './http.ts';
import type { CheckScope } from './check-scope.ts';
import { CheckFailure, show, type Check as KernelCheck, type FailureDetail } from '../kernel/check-kernel.ts';

type Exchange = results.Exchange;

// A conformance check is a check of the one kernel (kernel/check-kernel.ts) over this
// suite's context: a stable id, a title that reads as a sentence, the requirement ids it
// covers, and run(ctx) => Promise<Outcome>. Helpers below throw a CheckFailure so a check
// can stop at the first broken rule; the kernel catches it.

export { CheckFailure, CheckSkip, pass, skip, unaffordable, type Outcome } from '../kernel/check-kernel.ts';
export type { Need } from '../kernel/needs.ts';

export interface Check extends KernelCheck<CheckContext> {
  /** What the check judges (else conformance/check-scope.ts says): a check fails a target only through a requirement binding it. */
  readonly scope?: CheckScope;
  /** Runs after all others: checks that read what the whole run recorded, or that exhaust a limit. */
  readonly phase?: 'early' | 'main' | 'late' | 'final';
  /** Judges what the whole run recorded (not requests of its own): its evidence is the run's answered requests. */
  readonly judgesRun?: boolean;
}

export interface ProfileObservation {
  /** Dotted profile option, e.g. `pagination.overMax`. */
  option: string;
  expected: string;
  followed: boolean;
  received?: string;
}

export interface CheckContext {
  profile: Profile;
  strict: boolean;
  readOnly: boolean;
  hasControls: boolean;
  http: HttpClient;
  key: string;
  /** Every key of partner 1 (key first); requests that name no key are spread over them. */
  keys: string[];
  key2?: string;
  burstKey?: string;
  /** Overlapping requests per storm, when the run's plan sets it (conformance/plans.ts); else the suite's STORM. */
  storm?: number;
  /** Unique per run, so checks never collide with data of earlier runs. */
  runId: string;
  seed: number;
  /** A userId unique to this run and tag. */
  user(tag: string): string;
  /**
   * A call to an endpoint of the contract's table by its id (conformance/call.ts): method and
   * path from the table, the public base for a public one, the main key otherwise (unless
   * `key`). The exchange carries the id, and its answer is judged as that endpoint's on arrival
   * (answer-rules.ts). An endpoint the profile does not have (an unknown rates path) skips the check, naming why.
   */
  call<Id extends PartnerEndpointId>(id: Id, ...input: {} extends CallInput<Id> ? [Call<Id>?] : [Call<Id>]): Promise<Reply>;
  /**
   * A request that is no endpoint of the table: an unknown path, a route that must not exist.
   * Calls to an endpoint go through call(), so their answers are judged as its own.
   */
  api(method: string, path: string, spec?: Omit<RequestSpec, 'method' | 'path'>): Promise<Reply>;
  /** Request to the public base URL, without a key. */
  pub(method: string, path: string, spec?: Omit<RequestSpec, 'method' | 'path' | 'base'>): Promise<Reply>;
  /**
   * Waits until the rate limit has room for requests sent together (a storm): `need[1]` on one
   * key of partner 1 (the one returned) and `need[2]` on partner 2's, taken ahead. Spend them
   * with the returned key, then call done(). Skips the check when --max-wait passes first.
   */
  room(need: { 1?: number; 2?: number }, what: string): Promise<{ key: string; done(): void }>;
  note(text: string): void;
  /** A point where the spec is silent and the profile decides: a failure under --strict, else a note. */
  profileChoice(o: ProfileObservation, exchange?: Exchange): void;
  /**
   * Advice (issue 47): what lendcheck believes but the spec does not state of this answer (a
   * same-named field of another type in a not-shown body). Recorded with the exchange as its
   * evidence, shown on the console and in the report; a failure only under --strict.
   */
  advise(a: AdviceSeen, exchange?: Exchange): void;
  /** The per-response rules' judgements of the run's answers so far (answer-rules.ts), made as each arrived. */
  answers?: AnswerRules;
  /** Shared state between checks of one run (created positions, funded users). */
  shared: Map<string, unknown>;
  /**
   * Stops the run after this check: every check still to come is skipped with `reason`. For a
   * finding that makes the rest meaningless to wait for (a limiter that refills far slower than
   * it states: pacing on the stated rate would only hide it for minutes). Absent: no stopping.
   */
  stopRun?(reason: string): void;
}

/** Advice as a check gives it (contract/assertable.ts Finding): the runner adds the evidence. */
export type AdviceSeen = Omit<results.Advisory, 'evidence'>;

/** An exchange as evidence on one line: method, path and status. */
export function evidenceOf(x: Pick<Exchange, 'method' | 'url' | 'status'>): string {
  let where = x.url;
  try {
    const u = new URL(x.url);
    where = `${u.pathname}${u.search}`;
  } catch {
    // A relative URL (a test's) reads as it is.
  }
  return `${x.method} ${where} → ${x.status ?? 'no answer'}`;
}

export const fail = (title: string, expected: string, received: string, exchange?: Exchange, detail?: FailureDetail): never => {
  throw new CheckFailure(title, expected, received, exchange, detail);
};

export { show };
export type { FailureDetail };

/**
 * Runs part of a check and, when it fails, adds to the failure's reproduction what only the
 * check knows (the deliveries its receiver got, a timeline of attempts, values the reader must
 * supply): `detail` is read at the moment of the failure.
 */
export async function withDetail<T>(detail: () => FailureDetail, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (e) {
    if (!(e instanceof CheckFailure)) throw e;
    const d = detail();
    throw new CheckFailure(e.title, e.expected, e.received, e.exchange, { ...e.detail, ...d, vars: { ...e.detail?.vars, ...d.vars } });
  }
}

export function expectStatus(r: Reply, status: number | number[], title: string): void {
  const ok = Array.isArray(status) ? status.includes(r.status) : r.status === status;
  if (!ok) fail(title, `status ${Array.isArray(status) ? status.join(' or ') : status}`, `status ${r.status} ${show(r.json ?? r.text)}`, r.exchange);
}

export function expectJson(r: Reply, title: string): void {
  const ct = r.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(ct)) fail(title, 'Content-Type application/json', `Content-Type ${show(ct || '(none)')}`, r.exchange);
  if (r.json === undefined) fail(title, 'a JSON body', `body ${show(r.text.slice(0, 200))}`, r.exchange);
}

/** zod issues as "path: message" lines. */
export function issues(e: z.ZodError): string {
  return e.issues
    .slice(0, 5)
    // zod says "received undefined" for a missing field: say "absent", so no message reads undefined.
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message.replace(/received undefined/g, 'absent').replace(/\bundefined\b/g, '(absent)')}`)
    .join('; ');
}

export function expectShape<T extends z.ZodType>(r: Reply, schema: T, title: string, value: unknown = r.json): z.infer<T> {
  const p = schema.safeParse(value);
  if (!p.success) fail(title, 'a body matching the contract schema', `${issues(p.error)} in ${show(value)}`, r.exchange);
  return (p as { data: z.infer<T> }).data;
}

export function expectError(r: Reply, code: string, status: number, title: string): { code: string; message: string; details?: Record<string, unknown> } {
  const err = (r.json as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (r.status !== status || err?.code !== code) {
    fail(title, `${status} ${code}`, `${r.status} ${err && typeof err.code === 'string' ? err.code : show(r.json ?? r.text)}`, r.exchange);
  }
  if (typeof err!.message !== 'string' || err!.message.length === 0) fail(title, 'error.message a non-empty string', show(err!.message), r.exchange);
  if (err!.details !== undefined && (typeof err!.details !== 'object' || err!.details === null || Array.isArray(err!.details))) {
    fail(title, 'error.details an object when present', show(err!.details), r.exchange);
  }
  const ct = r.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(ct)) fail(title, 'an error body with Content-Type application/json', `Content-Type ${show(ct || '(none)')}`, r.exchange);
  return err as { code: string; message: string; details?: Record<string, unknown> };
}

/** Any 4xx carrying the spec's error object — for bad input whose exact code the spec leaves open. */
export function expectClientError(r: Reply, title: string): void {
  if (r.status < 400 || r.status > 499) fail(title, 'a 4xx status with the error object', `status ${r.status} ${show(r.json ?? r.text)}`, r.exchange);
  const err = (r.json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (!err || typeof err.code !== 'string' || !err.code || typeof err.message !== 'string' || !err.message) {
    fail(title, 'the error object {error:{code,message}}', show(r.json ?? r.text), r.exchange);
  }
}

/**
 * An error whose code the spec leaves open: the spec still demands a 4xx with the error
 * object; the exact status and code are the profile's choice (a note unless --strict).
 */
export function expectProfileError(ctx: CheckContext, r: Reply, choice: { code: string; status: number }, option: string, title: string): void {
  expectClientError(r, title);
  const code = (r.json as { error: { code: string } }).error.code;
  ctx.profileChoice({ option, expected: `${choice.status} ${choice.code}`, followed: r.status === choice.status && code === choice.code, received: `${r.status} ${code}` }, r.exchange);
}
