import type { Profile } from '../../contract/index.ts';
import { DEFAULT_KEYS } from '../../sandbox/auth/keys.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { runChecks, type ConformanceResult } from '../../conformance/runner.ts';
import { DEFAULT_MAX_REQUESTS, detectProfile, type DetectedProfile } from '../index.ts';
import { getOption, inapplicable, profileOptions, sameValue, UNDETECTABLE } from '../options.ts';

// The profile × controls matrix: the reference sandbox runs with a profile, with or
// without its controls; `profile detect` recovers the profile, then the conformance
// suite runs with what was detected. Used by matrix.test.ts (and printable as a table).


/** Options the reference sandbox does not honour, so no cell can show them detected; each with why (checked against sandbox/). */
export const NOT_HONOURED: Record<string, string> = {
  name: 'a label',
  // The options with one choice only (their UNDETECTABLE reason says so).
  ...Object.fromEntries(Object.entries(UNDETECTABLE).filter(([, why]) => why === 'one choice only')),
  'signature.toleranceSeconds': 'the receiver\'s replay window: the sandbox, as sender, does not use it',
  'events.emitted': 'the sandbox emits all six event types whatever the profile says',
  'ids.webhook': 'tells lendcheck the target\'s own field; the sandbox names its fields by bodies.fieldNames instead',
  'ids.withdrawal': 'tells lendcheck the target\'s own field; the sandbox names its fields by bodies.fieldNames instead',
  'ids.borrow': 'tells lendcheck the target\'s own field; the sandbox names its fields by bodies.fieldNames instead',
  'ids.repay': 'tells lendcheck the target\'s own field; the sandbox names its fields by bodies.fieldNames instead',
  'funding.userIds': 'the user\'s setting for driving a target, not the target\'s behaviour',
  'funding.request': 'the user\'s setting for driving a target, not the target\'s behaviour',
  'consistency.readAfterWrite': 'the sandbox reads its own writes at once, whatever the profile says',
  'consistency.convergenceMs': 'the sandbox reads its own writes at once, whatever the profile says',
  'bodies.fieldNames': 'not compared: detection records the fields a target sends (`responses`), not the sandbox\'s renaming map that made them',
  'amounts.pledgeTaken': 'a pledge seen taken, lendcheck\'s own record of what a borrow needed, read only where the ratio cannot be (no second stablecoin; detect/orders/pledge.ts): the sandbox\'s rule is amounts.minCollateralRatio, and it never reads this record',
  'access.foreignStatus': 'the sandbox answers 404 to another partner\'s object whatever the profile says (a 403 is the other correct answer; the matrix takes both)',
  // Requirements the user states of a target (what it must refuse), not behaviours a probe reads back.
  'webhooks.requireHttps': 'a requirement the user states, not a behaviour: the sandbox refuses plain http to a public host either way',
  'webhooks.refuseInternalAddresses': 'a requirement the user states, not a behaviour detect reads (the sandbox honours it; authz.webhook-url judges it)',
};

/** The options the sandbox honours under a profile: what a cell compares. */
export function comparedOptions(p: Profile): string[] {
  return profileOptions().filter((o) => !(o in NOT_HONOURED) && !inapplicable(p, o));
}

/**
 * What a cell's target cannot show within a run, with why (time travel, or a control):
 * these stay at their default and are not counted as detected. Everything else the
 * sandbox honours must be detected right.
 */
export function unseeable(controls: boolean): Record<string, string> {
  if (controls) return {};
  const liquidation = 'needs a liquidation: without the oracle control prices stay put, and only interest outgrowing the collateral liquidates, after months of business time at the highest rate (sandbox/no-controls.test.ts)';
  return {
    'webhooks.afterFinalRetry': 'needs the whole retry schedule (26.6 h of business time); and drop and mark-failed differ only in what the attempts control shows (its route is the only reader of delivery state), so no client tells them apart without it',
    'lifecycle.statusAfterLiquidation': liquidation,
    'amounts.liquidationRatio': liquidation,
    'lifecycle.transitions': 'the table needs a maturity (30 days of business time at the least) and a liquidation (months, see liquidationRatio)',
  };
}

/**
 * The request budget of a cell, told explicitly: the decimals and price searches of
 * assets.info (ASSET_INFO_BUDGET) and the webhook secret's length (SECRET_LENGTH_BUDGET,
 * about 4) come on top of the default budget (a Starter burst, 100), and with controls the
 * detectors that use the test clock and the oracle on top of that.
 */
export const ASSET_INFO_BUDGET = 50;
export const SECRET_LENGTH_BUDGET = 10;
/** The cancels of the resting orders and the DELETEs of the subscriptions detection made: counted in the budget since they are owed (Probe.owed). */
export const CLEANUP_BUDGET = 10;
export const NO_CONTROLS_BUDGET = DEFAULT_MAX_REQUESTS + ASSET_INFO_BUDGET + SECRET_LENGTH_BUDGET + CLEANUP_BUDGET;
export const CONTROLS_BUDGET = 160 + ASSET_INFO_BUDGET + SECRET_LENGTH_BUDGET;
/** Without controls at real time, the first retry comes a minute after the failed attempt: detection is told to wait for it. */
export const REAL_TIME_RETRY_WAIT_MS = 100_000;

/** A key with no tier, so the sandbox gives it limits.defaultTier (all its default keys carry one). */
export const UNTIERED_KEY = 'ck_test_partner_a_untiered';

export interface Cell {
  profile: string;
  controls: boolean;
  /** Business seconds per real second of the cell's sandbox. */
  timeScale: number;
  wrong: Array<{ option: string; detected: unknown; expected: unknown; why?: string }>;
  /** Honoured options the cell's target cannot show (unseeable()), not detected, with why. */
  unseen: Array<{ option: string; why: string }>;
  right: number;
  total: number;
  detected: DetectedProfile;
  /** Absent when the cell only detected. */
  conformance?: ConformanceResult;
  detectMs: number;
  conformMs: number;
}

/** One cell: `profile` (the caller loads it: detect/ stands below examples/) with or without controls. */
export async function runCell(name: string, profile: Profile, controls: boolean, o: { conform?: boolean; timeScale?: number } = {}): Promise<Cell> {
  const timeScale = o.timeScale ?? 1;
  const server = await startSandboxServer({ profile, controls, timeScale, validateResponses: false, keys: [...DEFAULT_KEYS, { key: UNTIERED_KEY, partnerId: 'partner_a' }] });
  try {
    const keys = server.keys;
    const key = keys.find((k) => k.key === 'ck_test_partner_a_scale')!.key;
    const t0 = performance.now();
    const detected = await detectProfile({ baseUrl: server.url, apiKey: key, newKey: UNTIERED_KEY, maxRequests: controls ? CONTROLS_BUDGET : NO_CONTROLS_BUDGET, retryWaitMs: controls ? undefined : REAL_TIME_RETRY_WAIT_MS });
    const detectMs = performance.now() - t0;
    const wrong: Cell['wrong'] = [];
    const unseen: Cell['unseen'] = [];
    const compared = comparedOptions(profile);
    const cannot = unseeable(controls);
    for (const o of compared) {
      const rec = detected.options[o]!;
      if (!rec.detected && o in cannot) unseen.push({ option: o, why: cannot[o]! });
      else if (!rec.detected || !sameValue(rec.value, getOption(profile, o))) wrong.push({ option: o, detected: rec.value, expected: getOption(profile, o), why: rec.detected ? undefined : rec.reason });
    }
    const t1 = performance.now();
    const conformance = o.conform === false ? undefined : await runChecks({
      baseUrl: server.url,
      apiKey: key,
      apiKey2: 'ck_test_partner_b_growth',
      burstKey: 'ck_test_partner_a_starter',
      keyTiers: { key: 'scale', key2: 'growth', burstKey: 'starter' },
      profile: detected.merged,
    });
    return { profile: name, controls, timeScale, wrong, unseen, right: compared.length - wrong.length - unseen.length, total: compared.length, detected, conformance, detectMs, conformMs: performance.now() - t1 };
  } finally {
    await server.close();
  }
}

export function cellRow(c: Cell): string {
  const f = c.conformance?.figures;
  return `| ${c.profile} | ${c.controls ? 'controls' : 'no controls'}${c.timeScale !== 1 ? `, ${c.timeScale}× time` : ''} | ${c.right}/${c.total}${c.unseen.length ? ` (${c.unseen.length} unseeable)` : ''} | ${f ? `${f.passed} / ${f.failed} / ${f.skipped}` : 'not run'} | ${(c.detectMs / 1000).toFixed(1)} s + ${(c.conformMs / 1000).toFixed(1)} s |`;
}
