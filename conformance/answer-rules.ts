import { endpointById, judgeSuccess, type Endpoint, type Finding, type Profile } from '../contract/index.ts';
import type { Exchange } from '../kernel/results.ts';
import type { Reply } from './http.ts';

// The per-response rules, run on each answer as it arrives, as Schemathesis runs its checks on
// each response with the operation known: the exchange names its endpoint (ctx.call set it),
// the body is the whole of what came (the log keeps a clip of long bodies for reports; the
// judgement never reads the log), and the check that sent it is known. The run keeps only
// what a report needs: how many were judged, the broken ones, and each advice once with its
// first evidence. endpoint.every-success-body (checks/every-answer.ts) reports them; no check
// judges these rules a second time from the log.

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

export class AnswerRules {
  judged = 0;
  readonly broken: BrokenAnswer[] = [];
  /** One advice per endpoint and belief, however many answers show it: the first is its evidence. */
  readonly advised = new Map<string, AdvisedAnswer>();

  constructor(private readonly profile: Profile) {}

  /** Judges one answer on arrival; answers to no endpoint of the table, errors and the sandbox's controls are no success answers to judge. */
  judge(reply: Pick<Reply, 'status' | 'headers' | 'json' | 'text' | 'exchange'>, check: string): void {
    const id = reply.exchange.endpoint;
    if (!id || reply.status < 200 || reply.status > 299) return;
    const e = endpointById(this.profile, id);
    if (!e || e.access === 'sandbox') return;
    // A probe with another method on the endpoint's path is no call of the endpoint itself.
    if (reply.exchange.method !== e.method) return;
    const j = judgeSuccess(this.profile, e, { status: reply.status, json: reply.json, text: reply.text, contentType: reply.headers['content-type'] ?? '' });
    this.judged++;
    const broken = j.failures[0];
    if (broken) this.broken.push({ exchange: reply.exchange, endpoint: e, check, finding: broken });
    for (const a of j.advisories) {
      const k = `${e.id}\u0000${a.expected}`;
      const seen = this.advised.get(k);
      if (seen) seen.more++;
      else this.advised.set(k, { finding: a, exchange: reply.exchange, endpoint: e, more: 0 });
    }
  }
}
