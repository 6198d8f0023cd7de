// The rate-limit scenario measures one key's bucket through a keyed read: the profile's rates
// path, or where that is unknown (ratesPath null) the authenticated order book (contract
// limitProbePath). Its template, /markets/{asset}/orderbook, is also the public order book's
// (/markets/{id}/orderbook), so a target may serve it without a key, from the public bucket:
// measuring that against tier figures fails a correct service (issue 47, cause 1). One request
// without a key tells: refused (401, or 403) is a keyed path; anything else skips the run, saying
// which profile option supplies a keyed one.
import { limitProbePath, type Profile } from '../../contract/index.ts';
import type { CheckResult, PartResult } from '../../kernel/results.ts';

/** Undefined when the limiter's path is refused without a key; else why the tier run cannot measure a key's bucket. */
export async function limiterPathNotKeyed(baseUrl: string, profile: Profile, fetchImpl: typeof fetch = fetch): Promise<string | undefined> {
  const path = limitProbePath(profile);
  let status = 0;
  // A 429 (the client address's public bucket spent by another run) says nothing either way: asked again.
  for (let attempt = 0; attempt < 3 && (status === 0 || status === 429); attempt++) {
    if (attempt) await new Promise((r) => setTimeout(r, 2000));
    try {
      const r = await fetchImpl(`${baseUrl.replace(/\/+$/, '')}${path}`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
      status = r.status;
      await r.body?.cancel();
    } catch (e) {
      return `GET ${path} without a key could not be sent (${(e as Error).message}), so it is not known to draw from a key's bucket`;
    }
  }
  if (status === 401 || status === 403) return undefined;
  const which = profile.ratesPath === null ? `the profile does not know the get-rates path (ratesPath null: the spec does not show it), and the authenticated order book GET ${path} that stands in for it` : `the profile's ratesPath GET ${path}`;
  return `${which} answered ${status} without a key, so it may draw from the public bucket, not the key's; the tier's figures cannot be measured through it. Give the authenticated get-rates path as ratesPath in the profile file (--profile)`;
}

/** The rate-limit run, skipped with the reason before k6 starts. */
export function limiterSkipped(name: string, reason: string, target: string, profile: Profile, startedAt: Date): PartResult {
  const check: CheckResult = { id: 'load.rate-limit.keyed-path', title: 'the limiter is measured through a path refused without a key', requirements: [], status: 'skipped', durationMs: 0, message: reason, skipKind: 'run-lacks', notes: [] };
  return { part: 'load', name, status: 'skipped', skipReason: reason, target, profile: profile.name, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), checks: [check], figures: {} };
}
