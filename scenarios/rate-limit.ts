// Characterises the limiter of one key (or, with PUBLIC=1, of one client address on the
// public endpoints): burst from idle, sustained rate at twice the tier, the three
// headers, and recovery. Env: BASE_URL, API_KEY, TIER, PUBLIC, SMOKE and the profile's
// choices (LIMIT_HEADER, RESET_UNIT, BURST_MEANING, RATES_PATH, PUBLIC_PATH).
import { sleep } from 'k6';
import exec from 'k6/execution';
import { loadConfig, perSecond } from './lib/config.ts';
import { call, callMany, expect429AsNormal, type Call, type Res } from './lib/http.ts';
import { applyRules, check429, detectResetUnit, readLimitHeaders, resetToSeconds, ruleCheck, RULES } from './lib/limit-headers.ts';
import { accepted, burstExcess, burstSeconds, burstShortfall, recovered, rejected, resetSeconds, unexpectedStatus } from './lib/metrics.ts';
import { PROBE_REQUESTS, rateLimitOptions, rateLimitPlan } from './lib/rate-limit-options.ts';

const cfg = loadConfig();
const plan = rateLimitPlan(cfg);
export const options = rateLimitOptions(cfg, plan);

if (cfg.burstMeaning !== 'bucket-capacity') throw new Error(`BURST_MEANING: only bucket-capacity is characterised, received "${cfg.burstMeaning}"`);
expect429AsNormal();

function target(tags: Record<string, string>): Call {
  return cfg.publicMode
    ? { endpoint: 'public.markets', path: cfg.publicPath, tags }
    : { endpoint: 'rates.get', path: cfg.ratesPath, tags };
}

function hit(phase: string, extra: Record<string, string> = {}): Res {
  const tags = { phase, ...extra };
  return record(call(cfg, target(tags)), tags);
}

function record(res: Res, tags: Record<string, string>): Res {
  const phase = tags.phase;
  const ok = res.status >= 200 && res.status < 300;
  unexpectedStatus.add(!ok && res.status !== 429, tags);
  if (ok) {
    accepted.add(1, tags);
    applyRules(res, cfg, [RULES], tags);
  } else if (res.status === 429) {
    rejected.add(1, tags);
    check429(res, cfg, tags);
  } else if (res.status === 401 || res.status === 0) {
    console.error(`phase ${phase}: status ${res.status} ${res.error ?? ''}`);
  }
  return res;
}

/** From idle: sequential requests, Remaining falls by one per accepted request. */
export function probe(): void {
  const rate = perSecond(cfg);
  // The burst goes out plan.burstStart s after the test's start on the same bucket: an answer
  // read after that moment may count the burst's requests too (a loaded machine's slow answers:
  // soak seed 6 read 476 after 498), so it and the rest of the probe are not judged.
  const burstAt = exec.scenario.startTime + plan.burstStart * 1000;
  let prev: { remaining: number; at: number } | undefined;
  for (let i = 0; i < PROBE_REQUESTS; i++) {
    const res = hit('probe');
    const at = Date.now();
    if (at >= burstAt) {
      console.log(`probe: answer ${i + 1} of ${PROBE_REQUESTS} came ${((at - burstAt) / 1000).toFixed(2)} s after the burst went out on the same bucket, so it and the rest of the probe are not judged (${i} judged)`);
      return;
    }
    const h = readLimitHeaders(res);
    if (res.status < 200 || res.status >= 300 || h.remaining === undefined) {
      ruleCheck('probe-accepted', 'requests from idle are accepted', `expected 2xx with Remaining / received ${res.status} remaining=${h.remaining}`, { phase: 'probe' });
      return;
    }
    if (!prev) {
      ruleCheck('idle-bucket-full', 'a key idle beforehand starts with a full bucket', h.remaining === cfg.burst - 1 ? undefined : `expected Remaining ${cfg.burst - 1} / received ${h.remaining}`, { phase: 'probe' });
    } else {
      // Refill between two answers may add whole tokens back; it can never remove more than one.
      const refill = Math.ceil((rate * (at - prev.at)) / 1000);
      const lo = prev.remaining - 1;
      const hi = prev.remaining - 1 + refill;
      ruleCheck('remaining-drops-by-one', 'Remaining drops by one for each accepted request', h.remaining >= lo && h.remaining <= hi ? undefined : `expected Remaining in [${lo}, ${hi}] / received ${h.remaining}`, { phase: 'probe' });
    }
    prev = { remaining: h.remaining, at };
  }
}

/** From idle: burst + 20 % at once; counts what the limiter admitted, credits the refill. */
export function burst(): void {
  const tags = { phase: 'burst' };
  const started = Date.now();
  const answers = callMany(cfg, target(tags), plan.burstRequests);
  const seconds = (Date.now() - started) / 1000;
  let admitted = 0;
  let beforeFirst429 = -1;
  answers.forEach((res, i) => {
    record(res, tags);
    if (res.status >= 200 && res.status < 300) admitted++;
    else if (res.status === 429 && beforeFirst429 < 0) beforeFirst429 = i;
  });
  burstSeconds.add(seconds, tags);
  burstExcess.add(admitted - (cfg.burst + perSecond(cfg) * seconds), tags);
  burstShortfall.add(cfg.burst - PROBE_REQUESTS - admitted, tags);
  console.log(`burst: ${admitted} of ${plan.burstRequests} admitted in ${seconds.toFixed(2)} s; first 429 at request ${beforeFirst429} in send order`);
}

export function sustain(): void {
  // Per-iteration: which window this arrival falls in, from the phase's own start time.
  const elapsed = (Date.now() - exec.scenario.startTime) / 1000;
  hit('sustain', { window: elapsed < plan.warmupSeconds ? 'warmup' : 'measure' });
}

/** After the sustained phase the bucket is empty: read Reset, watch the refill, recover. */
export function recovery(): void {
  const rate = perSecond(cfg);
  const tags = { phase: 'recovery' };
  // In parallel: one at a time, a slow target refills a token between requests (Scale
  // refills every 60 ms) and never says no.
  const probe = Math.ceil(rate * 2) + 5;
  const answers = callMany(cfg, target(tags), probe).map((r) => record(r, tags));
  const limited = answers.find((r) => r.status === 429);
  if (!limited) {
    ruleCheck('empty-after-sustain', 'the bucket is empty after running at twice the rate', `expected a 429 among ${probe} parallel requests / received none`, tags);
    recovered.add(false, tags);
    return;
  }
  const hl = readLimitHeaders(limited);
  if (hl.reset === undefined || hl.remaining === undefined) {
    recovered.add(false, tags);
    return; // the 429 rules above already counted the missing headers
  }
  const unit = detectResetUnit(hl.reset);
  const sl = resetToSeconds(hl.reset, unit, Date.now());
  resetSeconds.add(sl, tags);
  const fullL = (cfg.burst - hl.remaining) / rate;
  ruleCheck('reset-matches-bucket', 'Reset names the time the bucket needs to fill at the tier rate', Math.abs(sl - fullL) <= Math.max(1.5, fullL * 0.05) ? undefined : `expected Reset ≈ ${fullL.toFixed(1)} s (${unit}) / received ${sl.toFixed(1)} s`, tags);

  // Observed refill: an anchor request (bucket about empty), a wait of a few tokens' worth
  // (at least Retry-After), then one more; what came back is counted off Remaining.
  let res = hit('recovery');
  const t0 = Date.now();
  const h0 = readLimitHeaders(res);
  const r0 = res.status === 429 ? 0 : h0.remaining;
  const lat0 = res.timings.duration;
  const wait = Math.min(10, Math.max(hl.retryAfter ?? 0, 3 / rate, 1));
  sleep(wait);
  res = hit('recovery');
  const t1 = Date.now();
  const h1 = readLimitHeaders(res);
  const ok1 = res.status >= 200 && res.status < 300;
  recovered.add(ok1, tags);
  if (!ok1 || h1.remaining === undefined || h1.reset === undefined || r0 === undefined || h0.reset === undefined) {
    ruleCheck('accepted-after-retry-after', 'a request after waiting Retry-After is accepted', `expected 2xx with headers after ${wait} s / received ${res.status}`, tags);
    return;
  }
  // Where in its round trip the server stamped each answer is unknown: allow the refill
  // of both round trips on top of one token of rounding.
  const slack = 1.5 + (rate * (lat0 + res.timings.duration)) / 1000;
  const refilled = h1.remaining + 1 - r0;
  const want = (rate * (t1 - t0)) / 1000;
  ruleCheck('refill-at-tier-rate', 'the bucket refills at the tier rate', Math.abs(refilled - want) <= slack ? undefined : `expected ≈ ${want.toFixed(1)} ± ${slack.toFixed(1)} tokens back after ${((t1 - t0) / 1000).toFixed(1)} s / received ${refilled}`, tags);
  const s0 = resetToSeconds(h0.reset, unit, t0);
  const s1 = resetToSeconds(h1.reset, unit, t1);
  const drop = s0 - s1;
  // Between the two answers Reset fell by the time waited, less the token just spent.
  const wantDrop = (t1 - t0) / 1000 - 1 / rate;
  const slackS = 1.5 + (lat0 + res.timings.duration) / 1000;
  ruleCheck('reset-follows-refill', 'Reset falls in step with the refill observed', Math.abs(drop - wantDrop) <= slackS ? undefined : `expected Reset to fall by ≈ ${wantDrop.toFixed(1)} ± ${slackS.toFixed(1)} s / received ${drop.toFixed(1)} s`, tags);

  if (cfg.smoke) return;
  // Full runs: wait the whole Reset; the bucket is full again.
  sleep(Math.max(0, s1) + 1);
  res = hit('recovery');
  const h2 = readLimitHeaders(res);
  const full = res.status >= 200 && res.status < 300 && h2.remaining === cfg.burst - 1;
  recovered.add(full, tags);
  ruleCheck('full-after-reset', 'after waiting Reset the bucket is full again', full ? undefined : `expected 2xx with Remaining ${cfg.burst - 1} / received ${res.status} remaining=${h2.remaining}`, tags);
}
