import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultProfile, parseProfile, type Profile } from '../../contract/index.ts';
import { DEFAULT_KEYS } from '../../sandbox/auth/keys.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { runChecks, type ConformanceResult } from '../runner.ts';
import { detectProfile, type DetectedProfile } from './index.ts';
import { getOption, inapplicable, profileOptions, sameValue, UNDETECTABLE } from './options.ts';

// The profile × controls matrix: the reference sandbox runs with a profile, with or
// without its controls; `profile detect` recovers the profile, then the conformance
// suite runs with what was detected. Used by matrix.test.ts (and printable as a table).

export const EXAMPLE_PROFILES = ['fintech-rest', 'strict-gateway', 'minimal-sandbox'];

export function exampleProfile(name: string): Profile {
  if (name === 'default') return defaultProfile;
  const file = fileURLToPath(new URL(`../../examples/profiles/${name}.json`, import.meta.url));
  return parseProfile(JSON.parse(readFileSync(file, 'utf8')));
}

/** Options the reference sandbox does not honour, so no cell can show them detected; each with why (checked against sandbox/). */
export const NOT_HONOURED: Record<string, string> = {
  name: 'a label',
  // The options with one choice only (their UNDETECTABLE reason says so).
  ...Object.fromEntries(Object.entries(UNDETECTABLE).filter(([, why]) => why === 'one choice only')),
  'signature.toleranceSeconds': 'the receiver\'s replay window: the sandbox, as sender, does not use it',
  'events.emitted': 'the sandbox emits all six event types whatever the profile says',
  'ids.webhook': 'names the target\'s own field; the sandbox always uses lendcheck-v1\'s',
  'ids.withdrawal': 'names the target\'s own field; the sandbox always uses lendcheck-v1\'s',
  'ids.repay': 'names the target\'s own field; the sandbox always uses lendcheck-v1\'s',
  'funding.userIds': 'the user\'s setting for driving a target, not the target\'s behaviour',
  'funding.request': 'the user\'s setting for driving a target, not the target\'s behaviour',
};

/** The options the sandbox honours under a profile: what a cell compares. */
export function comparedOptions(p: Profile): string[] {
  return profileOptions().filter((o) => !(o in NOT_HONOURED) && !inapplicable(p, o));
}

/**
 * What a cell's target cannot show, with why: these stay at their default and are not
 * counted as detected. Everything else the sandbox honours must be detected right.
 */
export function unseeable(controls: boolean, timeScale = 1): Record<string, string> {
  const always: Record<string, string> = {
    'assets.info': 'collateral-only assets (ETH, WBTC) are never lent, so their oracle prices show only as collateral-ratio boundaries, not exactly (TVL counts lent assets only); decimals alone would not complete the record',
  };
  if (controls) return always;
  const retries: Record<string, string> = timeScale === 1 ? {
    'webhooks.successStatuses': 'a retry comes a minute after the failed attempt at real time; detection waits at most seconds',
    'webhooks.retryDelayFrom': 'the 1-minute retry delay at real time; detection waits at most seconds',
  } : {};
  return {
    ...always,
    ...retries,
    'webhooks.afterFinalRetry': 'the whole retry schedule (over a day at real time) and, to tell drop from mark-failed, the attempts control',
    'lifecycle.statusAfterLiquidation': 'needs a price move: no oracle control',
    'amounts.liquidationRatio': 'needs a price move: no oracle control',
    'lifecycle.transitions': 'the table needs maturity (time travel) and liquidation (price moves)',
  };
}

/**
 * The request budget of a cell with controls, told explicitly: the detectors that use the
 * test clock and the oracle come on top of the default budget (a Starter burst, 100).
 */
export const CONTROLS_BUDGET = 160;

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

export async function runCell(name: string, controls: boolean, o: { conform?: boolean; timeScale?: number } = {}): Promise<Cell> {
  const profile = exampleProfile(name);
  const timeScale = o.timeScale ?? 1;
  const server = await startSandboxServer({ profile, controls, timeScale, validateResponses: false, keys: [...DEFAULT_KEYS, { key: UNTIERED_KEY, partnerId: 'partner_a' }] });
  try {
    const keys = server.keys;
    const key = keys.find((k) => k.key === 'ck_test_partner_a_scale')!.key;
    const t0 = performance.now();
    const detected = await detectProfile({ baseUrl: server.url, apiKey: key, newKey: UNTIERED_KEY, maxRequests: controls ? CONTROLS_BUDGET : undefined });
    const detectMs = performance.now() - t0;
    const wrong: Cell['wrong'] = [];
    const unseen: Cell['unseen'] = [];
    const compared = comparedOptions(profile);
    const cannot = unseeable(controls, timeScale);
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
