import { defaultProfile, parseProfile, type Profile } from '../contract/index.ts';
import * as results from '../kernel/results.ts';
import { HttpClient, TransportError } from '../conformance/http.ts';
import { amountsDetector, orderBoundsDetector, withdrawalBoundDetector } from './orders/amounts.ts';
import { assetInfoDetector } from './market/asset-info.ts';
import { assetsDetector } from './market/assets.ts';
import { bookLevelsDetector } from './market/book-levels.ts';
import { DEFAULT_MAX_REQUESTS, widenedBudget } from './budget.ts';
import { bodyLimitDetector } from './orders/body-limit.ts';
import { boundsDetector } from './orders/bounds.ts';
import { destinationDetector } from './orders/destination.ts';
import { errorsDetector } from './orders/errors.ts';
import { fundsDetailsDetector } from './orders/funds-details.ts';
import { unknownFieldsDetector } from './orders/unknown-fields.ts';
import { lifecycleDetector } from './orders/lifecycle.ts';
import { liquidationDetector } from './orders/liquidation.ts';
import { detectedStatuses, getOption, inapplicable, profileOptions, RECORDS, sameValue, setOption, UNDETECTABLE, UNKNOWN_IF_UNDETECTED, UNKNOWN_MARKET_DATA, UNSTATED_BOUNDS } from './options.ts';
import { ordersDetector } from './orders/orders.ts';
import { OutOfBudget, Probe, type Confidence, type Detector } from './probe.ts';
import { periodsDetector, publicDetector } from './market/public.ts';
import { ratesDetector } from './market/rates.ts';
import { retriesDetector } from './webhooks/retries.ts';
import { secretLengthDetector } from './webhooks/secret-length.ts';
import { learnShapes } from './shapes.ts';
import { tierDetector } from './tier.ts';
import { transitionsDetector } from './orders/transitions.ts';
import type { RecordingReceiver } from '../receiver/recording.ts';
import { cancelPlaced, removeSubscriptions, type LeftBehind } from './cleanup.ts';
import { deliveriesDetector, subscribeDetector } from './webhooks/webhooks.ts';

// `lendcheck profile detect`: probes a target with a bounded number of requests and writes
// a profile of what it found, each option with its evidence and a confidence. Detectors run
// in order of value (later ones use what earlier ones found, and the cheapest, most
// telling probes go first), so a small budget still yields the important options.

// The order is what the suites need most under a small budget (a Starter key's 100): the
// options whose absence makes many checks skip come first. Every borrow a check sends is priced
// by the minimum order, the collateral ratio (or the pledge taken) and the assets' decimals and
// prices; unknown, some twenty checks skip (authz.matrix, the hooks, lifecycle, model.ledger-walk),
// so those searches follow the markets and assets they read. Options that only refine notes or
// statuses come after, and the body-size limit and the control-driven detectors last.
export const DETECTORS: Detector[] = [
  // The periods with the public reads (at most 15 requests): late in the list, a budget spent
  // before them left the default periods (30d among them) to be asserted of a target refusing 30d.
  ratesDetector, tierDetector, publicDetector, periodsDetector, orderBoundsDetector, assetsDetector,
  // Decimals and oracle prices: a bounded search per asset (about 7 requests against the usual prices, up to 40), skipped (saying so) when the budget is short.
  amountsDetector, assetInfoDetector,
  // Unknown, the book's levels make the order-book checks skip (options.ts UNKNOWN_IF_UNDETECTED).
  bookLevelsDetector,
  errorsDetector, destinationDetector, fundsDetailsDetector, unknownFieldsDetector, ordersDetector, boundsDetector, withdrawalBoundDetector,
  // The subscription before the organic match, whose events deliveries reads.
  subscribeDetector, lifecycleDetector, deliveriesDetector, secretLengthDetector, bodyLimitDetector,
  // Last: they need the sandbox controls, move its clock and prices, and cost the most.
  retriesDetector, liquidationDetector, transitionsDetector,
];

export { DEFAULT_MAX_REQUESTS } from './budget.ts';

export interface DetectOptions {
  baseUrl: string;
  apiKey: string;
  apiKey2?: string;
  /** A key issued without a tier (limits.defaultTier). */
  newKey?: string;
  publicBaseUrl?: string;
  /** The request budget; unset: DEFAULT_MAX_REQUESTS, raised where the key shows room (budget.ts). */
  maxRequests?: number;
  /** Host the target reaches lendcheck's receiver at (default 127.0.0.1). */
  receiverHost?: string;
  /**
   * How long a first webhook retry is awaited on a target without a test clock (default
   * 3 s: a target at real time retries a minute later, and reading the two retry options
   * from it takes about 90 s, so it is asked for).
   */
  retryWaitMs?: number;
}

export type OptionRecord =
  | { detected: true; value: unknown; default: unknown; confidence: Confidence; evidence: results.Exchange[]; note?: string }
  | { detected: false; value: unknown; default: unknown; reason: string };

export interface DetectedProfile {
  /** Profile input: only what differs from the defaults. */
  profile: Record<string, unknown>;
  /** The merged profile the suites would use. */
  merged: Profile;
  options: Record<string, OptionRecord>;
  requests: number;
  maxRequests: number;
  /** Why the budget is not the one given or the default (budget.ts), when it was raised. */
  budgetNote?: string;
  /** What detection leaves on the target (cleanup.ts). */
  leftBehind?: LeftBehind;
  durationMs: number;
}

export async function detectProfile(o: DetectOptions): Promise<DetectedProfile> {
  const t0 = performance.now();
  let budgetNote: string | undefined;
  const http = new HttpClient({ baseUrl: o.baseUrl, publicBaseUrl: o.publicBaseUrl, secrets: [o.apiKey, o.apiKey2 ?? '', o.newKey ?? ''] });
  const probe = new Probe(http, { key: o.apiKey, key2: o.apiKey2, newKey: o.newKey, maxRequests: o.maxRequests ?? DEFAULT_MAX_REQUESTS, runId: Date.now().toString(36), receiverHost: o.receiverHost, retryWaitMs: o.retryWaitMs });
  let leftSubscriptions: string[] = [];
  let leftPositions: string[] = [];
  // Ctrl-C: delete what was taken, then end as an interrupted run (exit 3).
  const onSignal = () => {
    const end = () => process.exit(3);
    cancelPlaced(probe).then(() => removeSubscriptions(probe)).then(end, end);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    for (const [i, d] of DETECTORS.entries()) {
      // No budget given: once the first answers show the key's room, the default may be raised (budget.ts).
      if (i === 1 && o.maxRequests === undefined) ({ max: probe.opts.maxRequests, note: budgetNote } = widenedBudget(probe.used, probe.mainRemaining));
      if (probe.left <= 0) {
        for (const opt of d.options) probe.miss(opt, `the request budget (${probe.opts.maxRequests}) was spent before ${d.name}`);
        continue;
      }
      try {
        await d.run(probe);
      } catch (e) {
        // Nothing has answered yet: the address is wrong or the target is down. A profile of
        // defaults written as if detected would hide that, so detection stops at once.
        if (e instanceof TransportError && probe.seen.length === 0) throw new Error(`cannot reach ${o.baseUrl}: ${e.message}`);
        const why = e instanceof OutOfBudget ? `${e.message} before ${d.name} finished` : `${d.name} stopped: ${(e as Error).message}`;
        for (const opt of d.options) probe.miss(opt, why);
      }
      for (const opt of d.options) if (!probe.found.has(opt)) probe.miss(opt, probe.missed.get(opt) ?? `${d.name} saw nothing to read it from`);
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    leftPositions = await cancelPlaced(probe);
    leftSubscriptions = await removeSubscriptions(probe);
    await probe.fact<{ receiver: RecordingReceiver }>('subscription')?.receiver.close();
    await probe.fact<RecordingReceiver>('retryReceiver')?.close();
    await http.close();
  }
  const leftBehind: LeftBehind = { subscriptions: leftSubscriptions, ...(leftPositions.length ? { positions: leftPositions } : {}), userPrefix: probe.user('') };
  return { ...assemble(probe, probe.opts.maxRequests, performance.now() - t0), ...(budgetNote ? { budgetNote } : {}), leftBehind };
}

function assemble(probe: Probe, maxRequests: number, durationMs: number): DetectedProfile {
  const diff: Record<string, unknown> = { name: 'detected' };
  for (const [opt, f] of probe.found) if (!sameValue(f.value, getOption(defaultProfile, opt))) setOption(diff, opt, f.value);
  // A bound the spec does not give is stated only when detection saw it enforced (profile `bounds`).
  for (const opt of UNSTATED_BOUNDS) if (!probe.found.has(opt)) setOption(diff, opt, null);
  for (const opt of [...UNKNOWN_IF_UNDETECTED, ...UNKNOWN_MARKET_DATA]) if (!probe.found.has(opt)) setOption(diff, opt, null);
  // The spec shows no rates path: one detection did not find is unknown (null), never the default asserted.
  if (!probe.found.has('ratesPath')) diff.ratesPath = null;
  // A record given in a profile replaces the default one whole, so a changed record is written whole.
  for (const rec of RECORDS) {
    if (diff[rec]) diff[rec] = { ...(defaultProfile as unknown as Record<string, object>)[rec], ...(diff[rec] as object) };
  }
  // The spec shows no success status: those detection did not see are unknown (null), never a default (options.ts).
  diff.successStatus = detectedStatuses((opt) => probe.found.get(opt)?.value);
  // The bodies the spec does not show, as the target sent them (no request of their own).
  const learned = learnShapes(parseProfile(diff), probe.seen);
  if (learned.length) diff.responses = Object.fromEntries(learned.map((l) => [l.key, { fields: l.fields }]));
  const merged = parseProfile(diff);
  const options: Record<string, OptionRecord> = {};
  for (const l of learned) {
    options[`responses.${l.key}`] = { detected: true, value: { fields: l.fields }, default: undefined, confidence: 'medium', evidence: [l.evidence], note: 'the fields of one success answer: each typed, none taken as always present' };
  }
  for (const opt of profileOptions()) {
    const def = getOption(defaultProfile, opt);
    const f = probe.found.get(opt);
    const na = inapplicable(merged, opt);
    if (na) options[opt] = { detected: false, value: def, default: def, reason: na };
    else if (f) {
      options[opt] = { detected: true, value: f.value, default: def, confidence: f.confidence, evidence: f.evidence, ...(f.note ? { note: f.note } : {}) };
    } else {
      const why = probe.missed.get(opt) ?? UNDETECTABLE[opt] ?? 'no detector reads it';
      if (UNSTATED_BOUNDS.includes(opt)) options[opt] = { detected: false, value: null, default: def, reason: `${why}; no bound is stated (null), as the spec gives none` };
      else if (opt.startsWith('successStatus.')) options[opt] = { detected: false, value: null, default: def, reason: `${why}; the status is unknown (null): any 2xx is the target's own, and the exported document says 2XX` };
      else if (UNKNOWN_IF_UNDETECTED.includes(opt) || UNKNOWN_MARKET_DATA.includes(opt)) options[opt] = { detected: false, value: null, default: def, reason: `${why}; unknown (null): the checks that need it skip naming it, none sends the default in its place` };
      else if (opt === 'ratesPath') options[opt] = { detected: false, value: null, default: def, reason: `${why}; the path is unknown (null): nothing is asserted of it, and the rates checks skip saying so` };
      else options[opt] = { detected: false, value: def, default: def, reason: why };
    }
  }
  return { profile: diff, merged, options, requests: probe.used, maxRequests, durationMs: Math.round(durationMs) };
}

/** The file `profile detect --out` writes: a loadable profile, with the detection beside it. */
export function profileFile(d: DetectedProfile, target: string): Record<string, unknown> {
  return { ...d.profile, detection: { target, requests: d.requests, maxRequests: d.maxRequests, ...(d.budgetNote ? { budgetNote: d.budgetNote } : {}), durationMs: d.durationMs, options: d.options } };
}
