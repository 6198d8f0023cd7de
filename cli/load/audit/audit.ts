import { Decimal } from '../../../contract/decimal.ts';
import type { Profile } from '../../../contract/index.ts';
import { restingRate } from '../../../contract/resting-rate.ts';
import type { CheckResult } from '../../../kernel/results.ts';
import { HttpClient, type Reply } from '../../../conformance/http.ts';
import { callSpec } from '../../../conformance/call.ts';
import type { Sample } from '../samples.ts';
import { orderMaturity } from '../../../contract/order-maturity.ts';

// The ledger audit after a load run, Jepsen's bank checker over a REST API: for every user the
// scenario touched (read from its `ledger_acks` samples, scenarios/lib/acks.ts), with no
// database and no balance endpoint,
//   - every order the run was told exists is listed exactly once, and every cancel it was told
//     happened shows as cancelled;
//   - no funds are negative (the insufficient_funds details of an order larger than any
//     balance, and every asset of the sandbox's balances control where the target has it);
//   - funds are conserved: a user whose only moves were lends, cancels and withdrawals holds
//     what a fresh user holds, less its open lends and its withdrawals, to the last unit.
// A run whose every answer was a fast 2xx still fails when the money does not add up.

export interface Ack {
  op: string;
  user: string;
  asset: string;
  amount?: string;
  position?: string;
  keyIndex: number;
}

export interface AuditInput {
  baseUrl: string;
  /** The run's keys by index (a pool's order); an ack without a pool_key is the first's. */
  keys: string[];
  acks: Sample[];
  profile: Profile;
  runId: string;
  scenario: string;
}

export interface AuditResult {
  check: CheckResult;
  figures: Record<string, number | string>;
}

export function acksOf(samples: Sample[]): Ack[] {
  return samples.map((s) => ({
    op: s.tags.op ?? '',
    user: s.tags.user ?? '',
    asset: s.tags.asset ?? '',
    ...(s.tags.amount !== undefined ? { amount: s.tags.amount } : {}),
    ...(s.tags.position !== undefined ? { position: s.tags.position } : {}),
    keyIndex: Number(s.tags.pool_key ?? 0),
  }));
}

const MAX_PAGES = 50;
const errOf = (r: Reply) => (r.json as { error?: { code?: string; details?: { available?: unknown } } } | undefined)?.error;

/** A user's funds of `asset` from the details of an order larger than any balance, or why not. */
async function probe(http: HttpClient, key: string, profile: Profile, userId: string, asset: string): Promise<{ available?: Decimal; why?: string }> {
  const r = await http.request(callSpec(profile, 'lend.create', { key, body: { userId, asset, amount: profile.amounts.maxOrder, rate: restingRate(profile.bounds.rateBelow).rate ?? 0.01, maturity: orderMaturity(profile) } }));
  if (r.status >= 200 && r.status < 300) {
    const id = (r.json as { positionId?: string } | undefined)?.positionId;
    if (id) await http.request(callSpec(profile, 'position.cancel', { params: { positionId: id }, key }));
    return { why: `${userId} holds at least the largest order (${profile.amounts.maxOrder} ${asset})` };
  }
  const e = errOf(r);
  if (e?.code === 'insufficient_funds' && typeof e.details?.available === 'string') return { available: new Decimal(e.details.available) };
  return { why: `an order beyond ${userId}'s funds answered ${r.status} ${e?.code ?? ''} without details.available`.trim() };
}

interface Listed {
  id: string;
  status: string;
}

async function listAll(http: HttpClient, key: string, profile: Profile, userId: string): Promise<{ items: Listed[]; why?: string }> {
  const items: Listed[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const r = await http.request(callSpec(profile, 'positions.list', { params: { userId }, key, query: { limit: 100, cursor } }));
    if (r.status < 200 || r.status > 299) return { items, why: `GET /users/${userId}/positions answered ${r.status}` };
    const body = r.json as { positions?: Array<{ positionId?: string; status?: string }>; hasMore?: boolean; nextCursor?: string | null } | undefined;
    for (const p of body?.positions ?? []) items.push({ id: String(p.positionId), status: String(p.status) });
    if (!body?.hasMore || typeof body.nextCursor !== 'string') return { items };
    cursor = body.nextCursor;
  }
  return { items, why: `more than ${MAX_PAGES} pages` };
}

export async function auditAfterLoad(i: AuditInput): Promise<AuditResult> {
  const t0 = performance.now();
  const acks = acksOf(i.acks);
  const http = new HttpClient({ baseUrl: i.baseUrl, secrets: i.keys });
  const violations: string[] = [];
  const notes: string[] = [];
  let conserved = 0;
  let ordersSeen = 0;
  try {
    const controls = await http.request(callSpec(i.profile, 'sandbox.clock', { key: i.keys[0] })).then((r) => r.status === 200, () => false);
    // What a fresh user holds: the baseline of conservation (the target funds new users alike).
    const refUser = `audit-ref-${i.runId}`;
    const ref = new Map<string, Decimal | undefined>();
    for (const asset of new Set(acks.map((a) => a.asset))) {
      const p = await probe(http, i.keys[0]!, i.profile, refUser, asset);
      ref.set(asset, p.available);
      if (!p.available) notes.push(`conservation of ${asset} not checked: a fresh user's funds cannot be learned (${p.why})`);
    }
    const users = new Map<string, Ack[]>();
    for (const a of acks) users.set(`${a.keyIndex}\u0000${a.user}`, [...(users.get(`${a.keyIndex}\u0000${a.user}`) ?? []), a]);
    for (const [k, list] of users) {
      const [, user] = k.split('\u0000') as [string, string];
      const key = i.keys[list[0]!.keyIndex] ?? i.keys[0]!;
      const listed = await listAll(http, key, i.profile, user);
      if (listed.why) notes.push(`${user}: list not read whole (${listed.why})`);
      const count = new Map<string, number>();
      for (const p of listed.items) count.set(p.id, (count.get(p.id) ?? 0) + 1);
      for (const [id, n] of count) if (n > 1) violations.push(`${user}: position ${id} listed ${n} times`);
      const status = new Map(listed.items.map((p) => [p.id, p.status]));
      for (const a of list.filter((x) => (x.op === 'lend' || x.op === 'borrow') && x.position)) {
        ordersSeen++;
        if (!listed.why && !count.has(a.position!)) violations.push(`${user}: acknowledged ${a.op} ${a.position} is not listed`);
      }
      for (const a of list.filter((x) => x.op === 'cancel' && x.position)) {
        const s = status.get(a.position!);
        if (s !== undefined && s !== 'cancelled') violations.push(`${user}: acknowledged cancel of ${a.position} not visible: listed ${s}`);
      }
      if (controls) {
        const b = await http.request(callSpec(i.profile, 'sandbox.balances', { params: { userId: user }, key }));
        for (const x of (b.json as { balances?: Array<{ asset: string; available: string; locked: string }> } | undefined)?.balances ?? []) {
          if (new Decimal(x.available).isNeg() || new Decimal(x.locked).isNeg()) violations.push(`${user}: ${x.asset} available ${x.available}, locked ${x.locked}: negative funds`);
        }
      }
      for (const asset of new Set(list.map((a) => a.asset))) {
        const p = await probe(http, key, i.profile, user, asset);
        if (!p.available) {
          notes.push(`${user}: ${asset} funds not learnable (${p.why})`);
          continue;
        }
        if (p.available.isNeg()) violations.push(`${user}: ${asset} available ${p.available.toFixed()}: negative funds`);
        const mine = list.filter((a) => a.asset === asset);
        // Borrows credit what their fills took and repays pay interest: amounts the interface does
        // not show; a matured lend pays interest. Conservation is exact only without them.
        const closed = mine.some((a) => a.op === 'lend' && a.position && !['pending', 'active', 'cancelled'].includes(status.get(a.position) ?? 'pending'));
        if (mine.some((a) => a.op === 'borrow' || a.op === 'repay') || closed || !ref.get(asset)) continue;
        const lends = mine.filter((a) => a.op === 'lend' && status.get(a.position ?? '') !== 'cancelled');
        const out = [...lends, ...mine.filter((a) => a.op === 'withdraw')].reduce((s, a) => s.plus(a.amount ?? '0'), new Decimal(0));
        const want = ref.get(asset)!.minus(out);
        if (!p.available.eq(want)) {
          const diff = p.available.minus(want);
          violations.push(
            `${user}: ${asset} expected ${want.toFixed()} (a fresh user's ${ref.get(asset)!.toFixed()} − ${lends.length} open lends − ${mine.filter((a) => a.op === 'withdraw').length} withdrawals) / received ${p.available.toFixed()} (${diff.abs().toFixed()} ${diff.isPos() ? 'more: money appeared' : 'less: money vanished'})`,
          );
        } else conserved++;
      }
    }
    // The audit's own requests, so that what the target counted (its /metrics) can be told apart from the run's.
    const auditRequests = http.log.length;
    const audit429 = http.log.filter((x) => x.status === 429).length;
    const audit2xx = http.log.filter((x) => x.status !== null && x.status >= 200 && x.status < 300).length;
    const figures = { auditUsers: users.size, auditOrders: ordersSeen, auditConserved: conserved, auditViolations: violations.length, auditRequests, audit429, audit2xx };
    const base = { id: `load.${i.scenario}.audit:ledger`, title: 'after the load, every touched user\'s funds are conserved and never negative, and every acknowledged order is listed exactly once', requirements: ['LEDGER-conserved'], durationMs: Math.round(performance.now() - t0) };
    if (!users.size) return { check: { ...base, status: 'skipped', message: 'the run acknowledged no write, so no user was touched', notes }, figures };
    return {
      check: violations.length
        ? { ...base, status: 'failed', message: `expected the ledger of ${users.size} touched users to add up / received ${violations.length} violations: ${violations.slice(0, 5).join('; ')}${violations.length > 5 ? '; …' : ''}`, notes }
        : { ...base, status: 'passed', notes: [`${users.size} users, ${ordersSeen} acknowledged orders listed once each, ${conserved} balances conserved to the last unit${controls ? ', every balance of the sandbox control non-negative' : ''}`, ...notes] },
      figures,
    };
  } finally {
    await http.close();
  }
}
