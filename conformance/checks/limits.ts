import { setTimeout as sleep } from 'node:timers/promises';
import { PUBLIC_PER_MINUTE, PUBLIC_RATE_LIMIT_MESSAGE, RATE_LIMIT_HEADERS, TIERS, type Profile, type TierName } from '../../contract/index.ts';
import { expectError, fail, show, type Check, type CheckContext, pass } from '../check.ts';
import type { Reply } from '../http.ts';
import { ENV } from '../target.ts';
import { refillCheck } from './limits-refill.ts';
import { keyedLimitRead } from './limit-path.ts';

/** Longest wait for the public bucket to hold three tokens again. */
const PUBLIC_REFILL_WAIT_MS = 5_000;
/** Longest wait for a key's bucket to hold five tokens again (Starter's 60/min: 5 s). */
const AUTH_REFILL_WAIT_MS = 6_000;

// Part 8: X-RateLimit-* on every response, Remaining that falls as requests are made, and
// a 429 rate_limit_exceeded (with its headers and Retry-After) once a bucket is empty.
// Bursts use a dedicated key and, for the public limit, run last: they starve what they hit.

const H = { limit: RATE_LIMIT_HEADERS.limit.toLowerCase(), remaining: RATE_LIMIT_HEADERS.remaining.toLowerCase(), reset: RATE_LIMIT_HEADERS.reset.toLowerCase() };

function intHeader(r: Pick<Reply, 'headers' | 'exchange'>, name: string, title: string): number {
  const v = r.headers[name];
  if (v === undefined || !/^\d+$/.test(v.trim())) fail(title, `header ${name} with a non-negative integer`, v === undefined ? 'no such header' : show(v), r.exchange);
  return Number(v);
}

function limitHeaders(r: Pick<Reply, 'headers' | 'exchange'>, title: string): { limit: number; remaining: number; reset: number } {
  return { limit: intHeader(r, H.limit, title), remaining: intHeader(r, H.remaining, title), reset: intHeader(r, H.reset, title) };
}

/** The figure X-RateLimit-Limit shows for a tier under the profile. */
function limitFigure(p: Profile, t: { perMinute: number; burst: number }): number {
  return p.limits.limitHeader === 'burst' ? t.burst : t.perMinute;
}

function retryAfterOk(v: string | undefined): boolean {
  if (v === undefined) return false;
  if (/^\d+$/.test(v.trim())) return Number(v) >= 1;
  return !Number.isNaN(Date.parse(v));
}

/** Sends until a 429 or `cap` requests; returns the answers. */
async function burst(send: () => Promise<Reply>, cap: number): Promise<Reply[]> {
  const out: Reply[] = [];
  for (let i = 0; i < cap; i++) {
    const r = await send();
    out.push(r);
    if (r.status === 429) break;
  }
  return out;
}

function check429(ctx: CheckContext, got: Reply[], what: string): Reply {
  const last = got[got.length - 1];
  if (last.status !== 429) fail(`${what}: requests past the limit get 429`, `a 429 within ${got.length} requests`, `status ${last.status} after ${got.length} requests`, last.exchange);
  expectError(last, 'rate_limit_exceeded', 429, `${what}: the 429 body`);
  const h = limitHeaders(last, `${what}: the 429 carries the rate-limit headers`);
  if (h.remaining !== 0) fail(`${what}: X-RateLimit-Remaining is 0 on a 429`, '0', String(h.remaining), last.exchange);
  if (!retryAfterOk(last.headers['retry-after'])) fail(`${what}: the 429 says when to retry`, 'Retry-After of ≥ 1 second (or an HTTP date)', show(last.headers['retry-after'] ?? 'none'), last.exchange);
  const reset = ctx.profile.limits.resetUnit;
  if (reset === 'delta-seconds' && h.reset < 1) fail(`${what}: X-RateLimit-Reset counts seconds to wait`, '≥ 1', String(h.reset), last.exchange);
  return last;
}

/**
 * Four success answers of the main key to one method and path that the run already got, each
 * asked after the one before it was read, within the time one token takes to refill at the
 * key's tier (answer-rules.ts sequentialRun), with their headers; undefined when the tier is
 * unknown or the run has no such four.
 */
function reusedRun(ctx: CheckContext, tierOfLimit: (limit: number) => TierName | undefined, known: string | undefined): { seq: Array<Pick<Reply, 'status' | 'headers' | 'exchange'>>; elapsed: number; hs: Array<ReturnType<typeof limitHeaders>> } | undefined {
  // Within one token of the slowest tier (Starter's second) first; the key's own tier is checked below.
  const run = ctx.answers?.sequentialRun(ENV.apiKey, 4, 60_000 / TIERS.starter.perMinute);
  if (!run) return undefined;
  const seq = run.map((a) => a.reply);
  const where = `${seq[0]!.exchange.method} ${new URL(seq[0]!.exchange.url).pathname}`;
  const hs = seq.map((r, i) => limitHeaders(r, `answer ${i + 1} of 4 to ${where} (sent by ${run[i]!.check})`));
  const tier = known && known in TIERS ? (known as TierName) : tierOfLimit(hs[0]!.limit);
  const elapsed = (run[3]!.receivedAt - run[0]!.sentAt) / 1000;
  // A tier not known, or a refill of a token or more during them: its own quick reads judge it instead.
  if (!tier || (elapsed * TIERS[tier].perMinute) / 60 >= 1) return undefined;
  ctx.note(`Remaining's fall judged on four answers the run already got, one after another in ${(elapsed * 1000).toFixed(0)} ms, of the main key to ${where} (sent by ${[...new Set(run.map((a) => a.check))].join(', ')}), no keyed reads of its own`);
  return { seq, elapsed, hs };
}

export interface KeyTiers {
  key?: string;
  key2?: string;
  burstKey?: string;
}

export function limitChecks(profile: Profile, tiers: KeyTiers = {}): Check[] {
  const tierOfLimit = (n: number): TierName | undefined => (Object.keys(TIERS) as TierName[]).find((t) => limitFigure(profile, TIERS[t]) === n);
  return [
    refillCheck(profile, tiers),
    {
      id: 'limits.headers-decrease',
      title: 'authenticated and public answers carry X-RateLimit-Limit, -Remaining and -Reset, and Remaining falls with each request',
      requirements: ['LIMIT-headers'],
      async run(ctx) {
        // The slowest-refilling key shows the fall best; refill during the requests is allowed for.
        const key = ctx.burstKey ?? ctx.key;
        const seen = reusedRun(ctx, tierOfLimit, tiers.key);
        const tierName = seen ? tiers.key : ctx.burstKey ? tiers.burstKey : tiers.key;
        const probe = await keyedLimitRead(ctx);
        const quick = async () => {
          const seq: Reply[] = [];
          const t0 = performance.now();
          for (let i = 0; i < 4; i++) seq.push(await probe.read({ key, retry429: false }));
          return { seq, elapsed: (performance.now() - t0) / 1000, hs: seq.map((r, i) => limitHeaders(r, `answer ${i + 1} of 4 to ${probe.what}`)) };
        };
        const tierOf = (limit: number) => (tierName && tierName in TIERS ? tierName : tierOfLimit(limit)) as TierName | undefined;
        // Four answers the run already got, one after another, of the main key to one path (a
        // paging walk, a check's reads), judged the same way instead of four reads of its own
        // (issue 48); only where the main key's tier is known and they came within the time one
        // token takes to refill, so the fall is judged, never excused. Its own reads otherwise.
        let q = seen ?? (await quick());
        // An empty bucket (earlier checks, or a detection run, on this key), one that answers
        // 429 at Remaining 0, cannot show a fall below 0: wait for five tokens at the tier's
        // rate (Starter's when unknown; bounded by AUTH_REFILL_WAIT_MS), then look again. A
        // Remaining of 0 on requests still accepted is no empty bucket and is judged below.
        const empty = () => q.hs[0].remaining === 0 && q.seq.some((r) => r.status === 429);
        if (empty()) {
          const perMinute = TIERS[tierOf(q.hs[0].limit) ?? 'starter'].perMinute;
          await sleep(Math.min(AUTH_REFILL_WAIT_MS, Math.ceil((5 * 60_000) / perMinute)));
          q = await quick();
        }
        const { seq, hs, elapsed } = q;
        for (let i = 1; i < hs.length; i++) {
          if (hs[i].limit !== hs[0].limit) fail('X-RateLimit-Limit stays the same for one key', String(hs[0].limit), String(hs[i].limit), seq[i].exchange);
          // Remaining above Limit is the per-minute reading of Limit (open in the spec): the profile's, unless --strict.
          if (profile.limits.limitHeader === 'burst' && hs[i].remaining > hs[0].limit) {
            ctx.profileChoice({ option: 'limits.limitHeader', expected: 'burst', followed: false, received: `Limit ${hs[0].limit} below Remaining ${hs[i].remaining}` }, seq[i].exchange);
            if (ctx.strict) fail('Remaining never exceeds Limit (profile limits.limitHeader=burst)', `≤ ${hs[0].limit}`, String(hs[i].remaining), seq[i].exchange);
          }
        }
        const t = tierOf(hs[0].limit);
        const refill = t ? (elapsed * TIERS[t].perMinute) / 60 : Infinity;
        if (empty()) {
          ctx.note(`the key's bucket stayed empty (Remaining 0 and a 429) after a refill wait of at most ${AUTH_REFILL_WAIT_MS / 1000} s, so its fall was not judged`);
        } else if (hs[3].remaining < hs[0].remaining) {
          // fell, as it should
        } else if (refill < 2) {
          fail('X-RateLimit-Remaining falls over four quick requests', `below ${hs[0].remaining} (refill in ${elapsed.toFixed(2)} s: ${refill.toFixed(1)})`, String(hs[3].remaining), seq[3].exchange);
        } else {
          ctx.note(`Remaining did not fall over 4 requests, but the refill during them (${refill.toFixed(1)}) could explain it`);
        }
        // Remaining is a whole number over a bucket that refills continuously, so after the
        // first answer the bucket holds less than R1 + 1; n more requests and a refill r leave
        // less than R1 + 1 - n + r. Two requests cannot show a fall (any refill may hide it),
        // three can: with r < 1 the third answer must be below R1.
        let p0 = performance.now();
        let p1 = limitHeaders(await ctx.call('public.markets', { retry429: false }), 'a public answer');
        // An empty bucket (an earlier run from this address) cannot show a fall below 0: wait
        // for three tokens at the public rate (bounded: at most PUBLIC_REFILL_WAIT_MS), then look again.
        if (p1.remaining < 2) {
          await sleep(Math.min(PUBLIC_REFILL_WAIT_MS, Math.ceil(((3 - p1.remaining) * 60_000) / PUBLIC_PER_MINUTE)));
          p0 = performance.now();
          p1 = limitHeaders(await ctx.call('public.markets', { retry429: false }), 'a public answer after the refill wait');
          if (p1.remaining < 2) {
            ctx.note(`the public bucket stayed (nearly) empty (Remaining ${p1.remaining}) after a ${PUBLIC_REFILL_WAIT_MS / 1000} s wait, so its fall was not judged`);
            return pass();
          }
        }
        await ctx.call('public.markets', { retry429: false });
        const p3r = await ctx.call('public.markets', { retry429: false });
        const p3 = limitHeaders(p3r, 'a third public answer');
        const pubRefill = ((performance.now() - p0) / 1000) * (PUBLIC_PER_MINUTE / 60);
        const bound = p1.remaining + 1 - 2 + pubRefill;
        if (p3.remaining >= bound) {
          fail('public Remaining falls over three quick requests', `below ${bound.toFixed(2)} (from ${p1.remaining}, refill ${pubRefill.toFixed(2)})`, String(p3.remaining), p3r.exchange);
        } else if (!(p3.remaining < p1.remaining)) {
          ctx.note(`public Remaining did not fall over three requests, but the refill during them (${pubRefill.toFixed(2)}) could explain it`);
        }
        return pass();
      },
    },
    {
      id: 'limits.tiers',
      title: 'each key shows the X-RateLimit-Limit of its tier (Starter 60/100, Growth 300/500, Scale 1000/2000) and public answers the public limit',
      requirements: ['LIMIT-tier-starter', 'LIMIT-tier-growth', 'LIMIT-tier-scale', 'LIMIT-public', 'LIMIT-headers'],
      async run(ctx) {
        const keys: Array<[keyof KeyTiers, string | undefined]> = [['key', ctx.key], ['key2', ctx.key2], ['burstKey', ctx.burstKey]];
        const probe = await keyedLimitRead(ctx);
        for (const [name, key] of keys) {
          if (!key) continue;
          const r = await probe.read({ key });
          const { limit } = limitHeaders(r, `the ${name} answer`);
          const known = tiers[name];
          if (known && known in TIERS) {
            const want = limitFigure(profile, TIERS[known as TierName]);
            const other = profile.limits.limitHeader === 'burst' ? TIERS[known as TierName].perMinute : TIERS[known as TierName].burst;
            if (limit === other && limit !== want) {
              ctx.profileChoice({ option: 'limits.limitHeader', expected: profile.limits.limitHeader, followed: false, received: `${limit}, the tier's ${profile.limits.limitHeader === 'burst' ? 'per-minute rate' : 'burst'}` }, r.exchange);
              if (ctx.strict) fail(`the ${name} (tier ${known}) shows its tier's limit (profile limits.limitHeader=${profile.limits.limitHeader})`, String(want), String(limit), r.exchange);
            } else if (limit !== want) fail(`the ${name} (tier ${known}) shows its tier's limit (profile limits.limitHeader=${profile.limits.limitHeader})`, String(want), String(limit), r.exchange);
          } else {
            const t = tierOfLimit(limit);
            ctx.note(t ? `${name}: X-RateLimit-Limit ${limit} is the ${t} tier's figure` : `${name}: X-RateLimit-Limit ${limit} matches no listed tier (an Enterprise key is "custom")`);
          }
        }
        const pr = await ctx.call('public.markets');
        const { limit } = limitHeaders(pr, 'a public answer');
        const want = profile.limits.limitHeader === 'burst' ? profile.limits.publicBurst : PUBLIC_PER_MINUTE;
        if (limit !== want) fail(`public answers show the public limit (60/min; profile limits.limitHeader=${profile.limits.limitHeader})`, String(want), String(limit), pr.exchange);
        return pass();
      },
    },
    {
      id: 'limits.burst-429',
      title: 'a key sent more requests than its bucket holds gets 429 rate_limit_exceeded with X-RateLimit-* at 0 and Retry-After, and not before Remaining ran out',
      requirements: ['LIMIT-429', 'ERR-rate_limit_exceeded', 'LIMIT-headers', 'LIMIT-tier-starter', 'SHAPE-error'],
      needs: ['burst-key', 'burst'],
      phase: 'late',
      async run(ctx) {
        const probe = await keyedLimitRead(ctx);
        const send = () => probe.read({ key: ctx.burstKey, retry429: false, paced: false });
        const first = await send();
        const h = limitHeaders(first, 'the first answer to the burst key');
        const t0 = performance.now();
        const got = await burst(send, h.remaining + 40);
        const elapsedS = (performance.now() - t0) / 1000;
        const accepted = got.filter((r) => r.status !== 429).length;
        check429(ctx, got, 'the burst key');
        const last = got[got.length - 1];
        // Remaining said how many more would pass; refill during the burst may add a few.
        if (accepted < h.remaining) fail('no 429 before X-RateLimit-Remaining reaches 0', `≥ ${h.remaining} more accepted`, `${accepted} accepted, then 429`, last.exchange);
        const tier = tiers.burstKey ?? tierOfLimit(h.limit);
        const perMinute = tier && tier in TIERS ? TIERS[tier as TierName].perMinute : h.limit;
        const allowance = h.remaining + Math.ceil((elapsedS * perMinute) / 60) + 1;
        if (accepted > allowance) fail(`the bucket lets through no more than Remaining plus the refill (${perMinute}/min)`, `≤ ${allowance} accepted`, `${accepted}`, last.exchange);
        ctx.note(`burst key: ${accepted + 1} accepted, then 429 (limit ${h.limit}, tier ${tier ?? 'unknown'})`);
        return pass();
      },
    },
    {
      id: 'limits.public-429',
      title: 'unauthenticated public requests past the public limit get 429 with the same error body (message: too many requests) and headers',
      requirements: ['LIMIT-public', 'LIMIT-429', 'ERR-public-429-body', 'ERR-rate_limit_exceeded', 'AUTH-5'],
      needs: ['burst'],
      phase: 'late',
      async run(ctx) {
        const send = () => ctx.call('public.markets', { retry429: false, paced: false });
        const first = await send();
        if (first.status === 429) {
          check429(ctx, [first], 'public');
        } else {
          const h = limitHeaders(first, 'the first public answer of the burst');
          const got = await burst(send, h.remaining + 30);
          check429(ctx, got, 'public');
          const last = got[got.length - 1];
          const msg = (last.json as { error: { message: string } }).error.message;
          if (!msg.toLowerCase().includes(PUBLIC_RATE_LIMIT_MESSAGE)) fail('the public 429 message reads "too many requests"', show(PUBLIC_RATE_LIMIT_MESSAGE), show(msg), last.exchange);
        }
        return pass();
      },
    },
    {
      id: 'limits.headers-everywhere',
      title: 'every answer recorded during the run carried the three X-RateLimit-* headers',
      requirements: ['LIMIT-headers'],
      phase: 'final',
      judgesRun: true,
      async run(ctx) {
        for (const x of ctx.http.log) {
          if (x.status === null) continue;
          const missing = Object.values(H).filter((h) => x.responseHeaders[h] === undefined);
          if (missing.length) fail(`every answer carries the rate-limit headers (${x.method} ${new URL(x.url).pathname} → ${x.status})`, Object.values(RATE_LIMIT_HEADERS).join(', '), `missing ${missing.join(', ')}`, x);
        }
        ctx.note(`${ctx.http.log.filter((x) => x.status !== null).length} answers checked`);
        return pass();
      },
    },
  ];
}
