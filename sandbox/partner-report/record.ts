import { RATE_LIMIT_HEADERS, type Profile } from '../../contract/index.ts';
import { CONTROLS_PREFIX, PARTNER_REPORT_PATH } from './path.ts';
import type { Answer } from '../answer/answer.ts';
import { isInternalRequest, type SandboxContext } from '../pipeline/plugin.ts';
import { NodeRequest, type SandboxRequest } from '../pipeline/request.ts';
import { andThen, type Stage } from '../pipeline/stage.ts';
import type { Exchange } from './types.ts';

// The partner report's recorder: a stage around every /v1 request, outermost of the stages so
// that it sees the rate limiter's 429s too. It keeps what the checks need of each exchange and
// nothing secret: the key's kind and id, never the key; an order's body, never another body;
// a subscription's url and events, never its secret. Bodies are taken after the answer, from
// what the route already read (FetchRequest and NodeRequest keep it), so the stage adds no
// read to a request and no wait to an answer.

/** Past this many exchanges the oldest are dropped (a load run must not grow the heap without end). */
export const RECORD_CAP = 20_000;

// The controls (path.ts) are the test's calls, not the partner's code at work: not recorded.
export { PARTNER_REPORT_PATH };

const ORDER_ENDPOINTS = new Set(['lend.create', 'borrow.create']);
const READ_ENDPOINTS = new Set(['position.get', 'positions.list']);

const headerOf = (a: Answer, name: string): string | undefined => {
  const lower = name.toLowerCase();
  for (const k in a.headers) if (k.toLowerCase() === lower) return a.headers[k];
  return undefined;
};

const textOf = (a: Answer): string | undefined => (a.body === null ? undefined : typeof a.body === 'string' ? a.body : Buffer.from(a.body).toString('utf8'));

function parse(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Wall ms from which a request would be let through after a 429: X-RateLimit-Reset in the profile's unit, or Retry-After, whichever is earlier. */
export function retryAtOf(profile: Profile, a: Answer, at: number): number | undefined {
  const candidates: number[] = [];
  const reset = Number(headerOf(a, RATE_LIMIT_HEADERS.reset));
  if (Number.isFinite(reset)) {
    const unit = profile.limits.resetUnit;
    candidates.push(unit === 'delta-seconds' ? at + reset * 1000 : unit === 'unix-seconds' ? reset * 1000 : reset);
  }
  const after = Number(headerOf(a, 'retry-after'));
  if (Number.isFinite(after)) candidates.push(at + after * 1000);
  return candidates.length ? Math.min(...candidates) : undefined;
}

/** Whether the request carried body bytes: from the headers on a socket, from the body itself in process. */
async function hasBodyOf(req: SandboxRequest, profile: Profile): Promise<boolean> {
  const len = Number(req.header('content-length') ?? 0);
  if (len > 0 || req.header('transfer-encoding') !== undefined) return true;
  if (req instanceof NodeRequest) return false;
  if (req.method === 'GET' || req.method === 'HEAD') return false;
  return (await req.text(profile).catch(() => '')).length > 0;
}

export class Recorder {
  private readonly list: Exchange[] = [];
  private seq = 0;
  dropped = 0;
  /** Records still reading a body: the report waits for them. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly ctx: SandboxContext,
    /** Told of each exchange once recorded (the plugin probes new subscriptions from here). */
    private readonly onRecord: (e: Exchange) => void = () => {},
    /** Ms on the clock the rate limiter runs on: wall time, or a door's test clock. */
    private readonly now: () => number = Date.now,
  ) {}

  get exchanges(): readonly Exchange[] {
    return this.list;
  }

  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  clear(): void {
    this.list.length = 0;
    this.dropped = 0;
  }

  readonly stage: Stage = (req, next) => {
    if (isInternalRequest(req.env) || req.path.startsWith(CONTROLS_PREFIX)) return next();
    const at = this.now();
    const t0 = performance.now();
    return andThen(next(), (a) => {
      const p: Promise<void> = this.record(req, a, at, performance.now() - t0)
        .catch(() => undefined)
        .finally(() => this.pending.delete(p));
      this.pending.add(p);
      return a;
    });
  };

  private async record(req: SandboxRequest, a: Answer, at: number, ms: number): Promise<void> {
    const { ctx } = this;
    // The caller stage read the header once (auth/bearer.ts): the key's kind and partner are on the request.
    const info = req.partner;
    const e: Exchange = {
      seq: ++this.seq,
      at,
      ms: Math.round(ms * 10) / 10,
      method: req.method,
      target: req.target,
      key: req.keyKind ?? 'none',
      hasBody: false,
      status: a.status,
      ...(req.endpoint ? { endpoint: req.endpoint } : {}),
      ...(info ? { partner: info.partnerId, keyId: info.keyId } : {}),
    };
    const ct = req.header('content-type');
    if (ct !== undefined) e.contentType = ct;
    const answer = a.status >= 400 || READ_ENDPOINTS.has(e.endpoint ?? '') || ORDER_ENDPOINTS.has(e.endpoint ?? '') ? parse(textOf(a)) : undefined;
    if (a.status >= 400) {
      const err = (answer as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
      if (typeof err?.code === 'string') e.errorCode = err.code;
      if (typeof err?.message === 'string') e.errorMessage = err.message;
    }
    if (a.status === 429) e.retryAt = retryAtOf(ctx.profile, a, at);
    if (READ_ENDPOINTS.has(e.endpoint ?? '') && a.status < 300) e.seenStatus = statusesOf(answer);
    // Bodies last: reading one may wait (an unread fetch body), and the fields above are final.
    e.hasBody = req.method !== 'GET' && req.method !== 'HEAD' && (await hasBodyOf(req, ctx.profile));
    if (e.hasBody && a.status < 300) await this.bodies(req, e, answer);
    this.list.push(e);
    this.onRecord(e);
    if (this.list.length > RECORD_CAP) {
      this.list.shift();
      this.dropped++;
    }
  }

  /** The two bodies the checks read: an order's (duplicates) and a subscription's url and events (webhook checks). */
  private async bodies(req: SandboxRequest, e: Exchange, answer: unknown): Promise<void> {
    const endpoint = e.endpoint ?? '';
    if (!ORDER_ENDPOINTS.has(endpoint) && endpoint !== 'webhooks.create') return;
    const text = await req.text(this.ctx.profile).catch(() => undefined);
    if (text === undefined) return;
    if (ORDER_ENDPOINTS.has(endpoint)) {
      e.orderBody = text;
      const id = (answer as { positionId?: unknown } | undefined)?.positionId;
      if (typeof id === 'string') e.positionId = id;
      return;
    }
    const sub = parse(text) as { url?: unknown; events?: unknown } | undefined;
    if (typeof sub?.url === 'string') e.subscription = { url: sub.url, events: Array.isArray(sub.events) ? sub.events.filter((x): x is string => typeof x === 'string') : [] };
  }
}

/** What a position read showed: its status, or a list's statuses in order. */
function statusesOf(body: unknown): string | undefined {
  const b = body as { status?: unknown; positions?: Array<{ status?: unknown }> } | undefined;
  if (typeof b?.status === 'string') return b.status;
  if (Array.isArray(b?.positions)) return b.positions.map((p) => String(p.status)).join(',');
  return undefined;
}
