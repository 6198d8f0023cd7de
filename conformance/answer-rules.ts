import { endpointById, judgeSuccess, type Endpoint, type Finding, type Profile } from '../contract/index.ts';
import type { Exchange } from '../kernel/results.ts';
import type { Reply } from './http.ts';

// The per-response rules, run on each answer as it arrives, as Schemathesis runs its checks on
// each response with the operation known: the exchange names its endpoint (ctx.call set it),
// the body is the whole of what came (the log keeps a clip of long bodies for reports; the
// judgement never reads the log), and the check that sent it is known. The run keeps only
// what a report needs: how many were judged, the broken ones, and each advice once with its
// first evidence. endpoint.every-success-body (checks/every-answer.ts) reports them; no check
// judges these rules a second time from the log. The first success answer of each endpoint is
// kept whole too, so that endpoint's own check (checks/endpoints.ts) judges an answer the run
// already got instead of sending a request to get another (issue 48).

export interface BrokenAnswer {
  exchange: Exchange;
  endpoint: Endpoint;
  /** The check whose request got this answer. */
  check: string;
  finding: Finding;
}

export interface AdvisedAnswer {
  finding: Finding;
  exchange: Exchange;
  endpoint: Endpoint;
  /** Further answers that showed the same belief broken. */
  more: number;
}

/** A success answer as it arrived, whole, and the check whose request got it. */
export interface SeenAnswer {
  reply: Reply;
  check: string;
  /** Its place among the answers judged (1 for the first). */
  nth: number;
}

/** A success answer of one key to one path, with when it was asked and read (http.ts). */
export interface TimedAnswer {
  reply: Pick<Reply, 'status' | 'headers' | 'exchange'>;
  check: string;
  sentAt: number;
  receivedAt: number;
}

/** How many of the latest answers of each key and path are kept for sequentialRun. */
const TIMED_KEPT = 8;

/** The query parameter names of an exchange's URL, sorted: answers differ by what was asked. */
const askedWith = (x: Exchange): string => {
  try {
    return [...new Set(new URL(x.url).searchParams.keys())].sort().join('&');
  } catch {
    return '';
  }
};

export class AnswerRules {
  judged = 0;
  readonly broken: BrokenAnswer[] = [];
  /**
   * The first success answer of each endpoint per set of query parameter names asked, in arrival
   * order: a per-endpoint check (checks/endpoints.ts) judges one the run already got instead of
   * asking again (issue 48). One answer per endpoint and parameter set, so the store stays small.
   */
  private readonly firsts = new Map<string, Map<string, SeenAnswer>>();
  /** The latest success answer of each endpoint per URL asked (a position read by its id): what a check may judge instead of reading again. */
  private readonly latests = new Map<string, Map<string, SeenAnswer>>();
  /** The latest success answers of each key (its variable) and method and path, as they arrived: limits.headers-decrease reads a run of them. */
  private readonly timed = new Map<string, TimedAnswer[]>();
  /** One advice per endpoint and belief, however many answers show it: the first is its evidence. */
  readonly advised = new Map<string, AdvisedAnswer>();

  constructor(private readonly profile: Profile) {}

  /** Judges one answer on arrival; answers to no endpoint of the table, errors and the sandbox's controls are no success answers to judge. */
  judge(reply: Pick<Reply, 'status' | 'headers' | 'json' | 'text' | 'exchange' | 'sentAt' | 'receivedAt'>, check: string): void {
    const id = reply.exchange.endpoint;
    if (!id || reply.status < 200 || reply.status > 299) return;
    const e = endpointById(this.profile, id);
    if (!e || e.access === 'sandbox') return;
    // A probe with another method on the endpoint's path is no call of the endpoint itself.
    if (reply.exchange.method !== e.method) return;
    const j = judgeSuccess(this.profile, e, { status: reply.status, json: reply.json, text: reply.text, contentType: reply.headers['content-type'] ?? '' });
    this.judged++;
    const byQuery = this.firsts.get(e.id) ?? new Map<string, SeenAnswer>();
    this.firsts.set(e.id, byQuery);
    const asked = askedWith(reply.exchange);
    const seen = { reply: { status: reply.status, headers: reply.headers, json: reply.json, text: reply.text, exchange: reply.exchange }, check, nth: this.judged };
    if (!byQuery.has(asked)) byQuery.set(asked, seen);
    const byUrl = this.latests.get(e.id) ?? new Map<string, SeenAnswer>();
    this.latests.set(e.id, byUrl.set(reply.exchange.url, seen));
    this.keepTimed(reply, check);
    const broken = j.failures[0];
    if (broken) this.broken.push({ exchange: reply.exchange, endpoint: e, check, finding: broken });
    for (const a of j.advisories) {
      const k = `${e.id}\u0000${a.expected}`;
      const seen = this.advised.get(k);
      if (seen) seen.more++;
      else this.advised.set(k, { finding: a, exchange: reply.exchange, endpoint: e, more: 0 });
    }
  }

  private keepTimed(reply: Pick<Reply, 'status' | 'headers' | 'exchange' | 'sentAt' | 'receivedAt'>, check: string): void {
    const x = reply.exchange;
    if (!x.credential || reply.sentAt === undefined || reply.receivedAt === undefined) return;
    let path: string;
    try {
      path = new URL(x.url).pathname;
    } catch {
      return;
    }
    const k = `${x.credential}\u0000${x.method} ${path}`;
    const list = this.timed.get(k) ?? [];
    list.push({ reply: { status: reply.status, headers: reply.headers, exchange: x }, check, sentAt: reply.sentAt, receivedAt: reply.receivedAt });
    if (list.length > TIMED_KEPT) list.shift();
    this.timed.set(k, list);
  }

  /**
   * The latest `n` success answers of the key named by variable `credential` to one method and
   * path that came one after another, each asked after the one before it was read (no storm:
   * overlapping requests may take tokens in another order than they are answered), from the first
   * sent to the last read within `maxSpanMs`, or undefined.
   */
  sequentialRun(credential: string, n: number, maxSpanMs: number): TimedAnswer[] | undefined {
    let best: TimedAnswer[] | undefined;
    for (const [k, list] of this.timed) {
      if (!k.startsWith(`${credential}\u0000`)) continue;
      for (let end = list.length; end >= n; end--) {
        const run = list.slice(end - n, end);
        if (!run.every((a, i) => i === 0 || a.sentAt >= run[i - 1]!.receivedAt)) continue;
        if (run[n - 1]!.receivedAt - run[0]!.sentAt > maxSpanMs) continue;
        if (!best || run[n - 1]!.receivedAt > best[n - 1]!.receivedAt) best = run;
        break;
      }
    }
    return best;
  }

  /** The latest success answer the run got from endpoint `id` whose exchange `accept` takes, or undefined. */
  lastSuccess(id: string, accept: (x: Exchange) => boolean): SeenAnswer | undefined {
    const seen = [...(this.latests.get(id)?.values() ?? [])].filter((a) => accept(a.reply.exchange));
    return seen.sort((a, b) => b.nth - a.nth)[0];
  }

  /** The first success answer the run got from endpoint `id` whose exchange `accept` takes (all by default), or undefined. */
  firstSuccess(id: string, accept: (x: Exchange) => boolean = () => true): SeenAnswer | undefined {
    const seen = [...(this.firsts.get(id)?.values() ?? [])].filter((a) => accept(a.reply.exchange));
    return seen.sort((a, b) => a.nth - b.nth)[0];
  }
}
