// The rate-limit scenario measures one key's bucket through a keyed read: the profile's rates
// path, or where that is unknown (ratesPath null) the authenticated order book (contract
// limitProbe). Its template, /markets/{asset}/orderbook, is also the public order book's
// (/markets/{id}/orderbook), so a target may serve it without a key, from the public bucket:
// measuring that against tier figures fails a correct service (issue 47, cause 1). Answers tell
// (contract limiter-bucket.ts); where they cannot, the run skips, saying which option supplies one.
import { limitProbe, resolveCall, type Profile } from '../../contract/index.ts';
import { keyedBucketApart, refusedWithoutKey, type LimitReply } from '../../contract/limiter-bucket.ts';
import type { CheckResult, PartResult } from '../../kernel/results.ts';

/** Long enough for the slowest tier (Starter, 60 a minute) to refill the token the keyed look took. */
export const REFILL_WAIT_MS = 2500;

/** Undefined when the limiter's path draws from the key's bucket (contract limiter-bucket.ts); else why the tier run cannot measure the key. */
export async function limiterPathNotKeyed(baseUrl: string, profile: Profile, apiKey: string, fetchImpl: typeof fetch = fetch): Promise<string | undefined> {
  const probe = limitProbe(profile);
  const path = resolveCall(profile, probe.id, probe.params).path;
  const get = async (key?: string): Promise<LimitReply> => {
    let out: LimitReply = { status: 0, headers: {} };
    // A 429 (the client address's public bucket spent by another run) says nothing either way: asked again.
    for (let attempt = 0; attempt < 3 && (out.status === 0 || out.status === 429); attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, 2000));
      const r = await fetchImpl(`${baseUrl.replace(/\/+$/, '')}${path}`, { headers: { accept: 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) }, signal: AbortSignal.timeout(10_000) });
      out = { status: r.status, headers: Object.fromEntries([...r.headers].map(([k, v]) => [k.toLowerCase(), v])) };
      await r.body?.cancel();
    }
    return out;
  };
  let why: string | undefined;
  try {
    const bare = await get();
    if (refusedWithoutKey(bare)) return undefined;
    why = keyedBucketApart(bare, await get(apiKey), await get());
    // The scenario starts from a full bucket (its probe asserts Remaining = burst - 1): the one
    // token taken here is given time to come back (a Starter key refills one a second).
    await new Promise((r) => setTimeout(r, REFILL_WAIT_MS));
    if (!why) return undefined;
    why = `it answered ${bare.status} without a key, and ${why}`;
  } catch (e) {
    why = `it could not be asked (${(e as Error).message})`;
  }
  const which = profile.ratesPath === null ? `the profile does not know the get-rates path (ratesPath null: the spec does not show it), and for the authenticated order book GET ${path} that stands in for it` : `for the profile's ratesPath GET ${path}`;
  return `${which} ${why}, so the key's bucket is not known to be measured through it; the tier's figures are not judged on it. Give the authenticated get-rates path as ratesPath in the profile file (--profile)`;
}

/** The rate-limit run, skipped with the reason before k6 starts. */
export function limiterSkipped(name: string, reason: string, target: string, profile: Profile, startedAt: Date): PartResult {
  const check: CheckResult = { id: 'load.rate-limit.keyed-path', title: 'the limiter is measured through a path refused without a key', requirements: [], status: 'skipped', durationMs: 0, message: reason, skipKind: 'run-lacks', notes: [] };
  return { part: 'load', name, status: 'skipped', skipReason: reason, target, profile: profile.name, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), checks: [check], figures: {} };
}
