import type * as results from '../kernel/results.ts';
import type { HttpClient, Reply, RequestSpec } from '../conformance/http.ts';
import { findId } from '../contract/body-id.ts';
import { defaultProfile, endpointById, NoSuchEndpoint, successKey, type CallInput, type LooseBody, type PartnerEndpointId, type Profile } from '../contract/index.ts';
import { callSpec, type Call, type CallOptions } from '../conformance/call.ts';
import { remainingOf } from './budget.ts';

type Exchange = results.Exchange;

// What a detector works with: one HTTP client whose every request is counted against a
// hard budget (a Starter key's burst, 100, unless told otherwise), a bag of facts earlier
// detectors found (the rates path, the markets, created positions), and the record of
// what was found, with its evidence, or why it was not.

export type Confidence = 'high' | 'medium' | 'low';

export interface Found {
  option: string;
  value: unknown;
  confidence: Confidence;
  /** The redacted exchanges the value was read from. */
  evidence: Exchange[];
  note?: string;
}

export class OutOfBudget extends Error {}

/** Endpoints of the table (contract/endpoints.ts, sandbox-controls.ts) outside PartnerEndpoints: called by id all the same. */
export type UntypedEndpointId = 'public.rateSeries' | 'sandbox.oracle';
type UntypedCall = { params?: Record<string, string>; query?: Record<string, string | number | undefined>; body?: LooseBody } & CallOptions;

export interface ProbeOptions {
  key: string;
  key2?: string;
  /** A key issued without a tier, to read the default tier from. */
  newKey?: string;
  maxRequests: number;
  runId: string;
  /** Where a target can reach lendcheck's own webhook receiver (default: the loopback listener). */
  receiverHost?: string;
  /** How long a first webhook retry is awaited without a test clock (default FIRST_RETRY_WAIT_MS, 3 s). */
  retryWaitMs?: number;
}

export class Probe {
  used = 0;
  readonly found = new Map<string, Found>();
  readonly missed = new Map<string, string>();
  /** Facts shared between detectors, by name. */
  readonly facts = new Map<string, unknown>();
  readonly secrets: string[] = [];
  /** Every answer, in order: the bodies the spec does not show are learned from them (shapes.ts). */
  readonly seen: Array<{ method: string; path: string; keyed: boolean; reply: Reply; endpoint?: string }> = [];
  /** The main key's X-RateLimit-Remaining on its latest answer that carried one (budget.ts). */
  mainRemaining?: number;
  /**
   * Subscriptions detection made on the target and has not deleted, by id (or '' when the
   * registration showed none): removed at the end (cleanup.ts), or listed where they cannot be.
   */
  readonly subscriptions = new Map<string, { url: string; key: string | null | undefined }>();

  constructor(readonly http: HttpClient, readonly opts: ProbeOptions) {}

  /**
   * Positions detection placed (a 2xx to POST /lend or /borrow) and has not cancelled nor seen
   * matched, by id: each owes a cancel, made at the end when its detector made none (cleanup.ts),
   * so no order of detection's rests on the target's book for the suites to meet.
   */
  readonly placed = new Set<string>();

  /**
   * Requests owed to cleaning up: a cancel per position placed, a DELETE per subscription taken.
   * They are kept out of what the detectors may spend, so the budget never cuts them and the
   * whole detection, cleanup included, stays within it.
   */
  get owed(): number {
    return this.placed.size + [...this.subscriptions.keys()].filter((id) => !id.startsWith('(no id)')).length;
  }

  /** What the detectors may still spend: the budget less what was sent and what cleanup is owed. */
  get left(): number {
    return this.opts.maxRequests - this.used - this.owed;
  }

  /** A userId unique to this run. */
  user(tag: string): string {
    return `detect-${this.opts.runId}-${tag}`;
  }

  /**
   * A call to an endpoint of the contract's table by its id (conformance/call.ts), with the main
   * key for a keyed one and none (on the public base) for a public one: the exchange names the
   * endpoint, so what is learned from its answer (shapes.ts) is that endpoint's. The get-rates
   * path is the one detection found (fact ratesPath); before that, the rates endpoint is no
   * call to make (NoSuchEndpoint), never the default profile's path asserted.
   */
  call<Id extends PartnerEndpointId>(id: Id, ...input: {} extends CallInput<Id> ? [Call<Id>?] : [Call<Id>]): Promise<Reply>;
  /** An endpoint of the table that lendcheck/types does not name (the rate series, the oracle control): by id too, its body untyped. */
  call(id: UntypedEndpointId, input?: UntypedCall): Promise<Reply>;
  call(id: PartnerEndpointId | UntypedEndpointId, input?: object): Promise<Reply> {
    const ratesPath = this.fact<string>('ratesPath');
    if (id === 'rates.get' && !ratesPath) throw new NoSuchEndpoint(id);
    const profile = ratesPath && ratesPath !== defaultProfile.ratesPath ? (this.withRates ??= { ...defaultProfile, ratesPath }) : defaultProfile;
    // resolveCall finds every id of the table at run time; the typed ids are checked by the overloads above.
    const spec = callSpec(profile, id as PartnerEndpointId, (input ?? {}) as Call<PartnerEndpointId>);
    const { method, path, ...rest } = spec;
    return this.api(method, path, rest);
  }

  private withRates?: Profile;

  /** One request with the main key (unless `key` says otherwise); refused once the budget is spent. Endpoints are called by name (call); this is for paths that are no endpoint of the table. */
  async api(method: string, path: string, spec: Omit<RequestSpec, 'method' | 'path'> = {}): Promise<Reply> {
    const cleanup = this.isCleanup(method, path, spec);
    // A request that may leave something to clean up needs room for that cleanup too; a cleanup spends the room kept for it.
    if (!cleanup && this.left < (this.mayPlace(method, spec) ? 2 : 1)) throw new OutOfBudget(`the request budget (${this.opts.maxRequests}) is spent`);
    this.used++;
    const reply = await this.http.send({ key: this.opts.key, ...spec, method, path });
    this.seen.push({ method, path, keyed: spec.key !== null, reply, ...(spec.endpoint ? { endpoint: spec.endpoint } : {}) });
    if (spec.key === undefined) this.mainRemaining = remainingOf(reply) ?? this.mainRemaining;
    this.trackSubscription(method, path, spec, reply);
    this.trackPosition(method, path, spec, reply);
    return reply;
  }

  /** A position this detection placed is no longer resting (matched, or its cancel tried): it owes no cancel. */
  settled(positionId: string): void {
    this.placed.delete(positionId);
  }

  private mayPlace(method: string, spec: Omit<RequestSpec, 'method' | 'path'>): boolean {
    return method === 'POST' && (spec.endpoint === 'lend.create' || spec.endpoint === 'borrow.create' || spec.endpoint === 'webhooks.create');
  }

  private isCleanup(method: string, path: string, spec: Omit<RequestSpec, 'method' | 'path'>): boolean {
    const id = idInPath(path);
    if (spec.endpoint === 'position.cancel' && method === 'POST') return this.placed.has(id);
    return spec.endpoint === 'webhooks.delete' && method === 'DELETE' && this.subscriptions.has(id);
  }

  /** Every position placed owes a cancel until one is tried (whatever its answer: a cancel refused is one the target will not take) or it is settled. */
  private trackPosition(method: string, path: string, spec: Omit<RequestSpec, 'method' | 'path'>, reply: Reply): void {
    if (method !== 'POST') return;
    if (spec.endpoint === 'position.cancel') this.placed.delete(idInPath(path));
    else if ((spec.endpoint === 'lend.create' || spec.endpoint === 'borrow.create') && reply.status >= 200 && reply.status < 300) {
      const id = findId(reply.json, 'positionId')?.value ?? findId(reply.json, undefined, ['userId'])?.value;
      if (id) this.placed.add(id);
    }
  }

  /** Every subscription taken is remembered until its DELETE succeeds (leave nothing behind). */
  private trackSubscription(method: string, path: string, spec: Omit<RequestSpec, 'method' | 'path'>, reply: Reply): void {
    const ok2xx = reply.status >= 200 && reply.status < 300;
    if (!ok2xx) return;
    if (spec.endpoint === 'webhooks.create' && method === 'POST') {
      const id = findId(reply.json, undefined, ['userId'])?.value ?? '';
      const url = String((spec.body as { url?: unknown } | undefined)?.url ?? '');
      this.subscriptions.set(id || `(no id) ${url}`, { url, key: spec.key });
    } else if (spec.endpoint === 'webhooks.delete' && method === 'DELETE') {
      this.subscriptions.delete(decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)));
    }
  }

  /** A public request: no key. */
  pub(method: string, path: string, spec: Omit<RequestSpec, 'method' | 'path' | 'key'> = {}): Promise<Reply> {
    return this.api(method, path, { ...spec, key: null });
  }

  set(option: string, value: unknown, confidence: Confidence, evidence: Array<Reply | Exchange | undefined>, note?: string): void {
    const ex = evidence.filter((e): e is Reply | Exchange => e !== undefined).map((e) => ('exchange' in e ? e.exchange : e));
    this.found.set(option, { option, value, confidence, evidence: ex, note });
    this.missed.delete(option);
  }

  miss(option: string, reason: string): void {
    if (!this.found.has(option)) this.missed.set(option, reason);
  }

  fact<T>(name: string): T | undefined {
    return this.facts.get(name) as T | undefined;
  }
}

/** The id a path ends with (`/positions/{id}/cancel`, `/webhooks/{id}`). */
const idInPath = (path: string): string => {
  const p = path.replace(/\/cancel$/, '');
  return decodeURIComponent(p.slice(p.lastIndexOf('/') + 1));
};

export interface Detector {
  name: string;
  /** Dotted profile options it answers (a record's entries as `successStatus.POST /lend`). */
  options: string[];
  run(p: Probe): Promise<void>;
}

// ---- small readers shared by the detectors ----------------------------------------------

export const ok = (r: Reply) => r.status >= 200 && r.status < 300;

/** The profile option of an endpoint's success status (`successStatus.POST /lend`), its key from the table (contract successKey). */
export const successOption = (id: PartnerEndpointId | UntypedEndpointId): string => `successStatus.${successKey(endpointById(defaultProfile, id)!)}`;

export function errorOf(r: Reply): { code: string; message: string } | undefined {
  const e = (r.json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return e && typeof e.code === 'string' ? { code: e.code, message: typeof e.message === 'string' ? e.message : '' } : undefined;
}

/** `{code, status}` of an error reply, or undefined when it is not the spec's error object. */
export function errorChoiceOf(r: Reply): { code: string; status: number } | undefined {
  const e = errorOf(r);
  return e && r.status >= 400 ? { code: e.code, status: r.status } : undefined;
}

/** The text an error gives about itself (code, message, details), lower-cased, to see which field it names. */
export function errorText(r: Reply): string {
  const e = (r.json as { error?: unknown } | undefined)?.error;
  return JSON.stringify(e ?? r.text ?? '').toLowerCase();
}


/** The payload of a public reply, with or without the {data, timestamp} wrapper. */
export function unwrap(r: Reply): unknown {
  const j = r.json as Record<string, unknown> | undefined;
  return j && typeof j === 'object' && 'data' in j && 'timestamp' in j ? j.data : j;
}
