import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultProfile, parseProfile, type Profile } from '../../contract/index.ts';
import { startSandboxServer } from '../../sandbox/server.ts';
import { runChecks, type ConformanceResult } from '../runner.ts';
import { DETECTORS, detectProfile, type DetectedProfile } from './index.ts';
import { getOption, inapplicable, sameValue } from './options.ts';

// The profile × controls matrix: the reference sandbox runs with a profile, with or
// without its controls; `profile detect` recovers the profile, then the conformance
// suite runs with what was detected. Used by matrix.test.ts (and printable as a table).

export const EXAMPLE_PROFILES = ['fintech-rest', 'strict-gateway', 'minimal-sandbox'];

export function exampleProfile(name: string): Profile {
  if (name === 'default') return defaultProfile;
  const file = fileURLToPath(new URL(`../../examples/profiles/${name}.json`, import.meta.url));
  return parseProfile(JSON.parse(readFileSync(file, 'utf8')));
}

/** The options detection answers that the sandbox honours (ids.* name lendcheck-v1's own fields). */
export function comparedOptions(p: Profile): string[] {
  return DETECTORS.flatMap((d) => d.options).filter((o) => !o.startsWith('ids.') && !inapplicable(p, o));
}

export interface Cell {
  profile: string;
  controls: boolean;
  wrong: Array<{ option: string; detected: unknown; expected: unknown; why?: string }>;
  right: number;
  total: number;
  detected: DetectedProfile;
  /** Absent when the cell only detected. */
  conformance?: ConformanceResult;
  detectMs: number;
  conformMs: number;
}

export async function runCell(name: string, controls: boolean, o: { conform?: boolean } = {}): Promise<Cell> {
  const profile = exampleProfile(name);
  const server = await startSandboxServer({ profile, controls, validateResponses: false });
  try {
    const keys = server.keys;
    const key = keys.find((k) => k.key === 'ck_test_partner_a_scale')!.key;
    const t0 = performance.now();
    const detected = await detectProfile({ baseUrl: server.url, apiKey: key });
    const detectMs = performance.now() - t0;
    const wrong: Cell['wrong'] = [];
    const compared = comparedOptions(profile);
    for (const o of compared) {
      const rec = detected.options[o]!;
      if (!sameValue(rec.value, getOption(profile, o))) wrong.push({ option: o, detected: rec.value, expected: getOption(profile, o), why: rec.detected ? undefined : rec.reason });
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
    return { profile: name, controls, wrong, right: compared.length - wrong.length, total: compared.length, detected, conformance, detectMs, conformMs: performance.now() - t1 };
  } finally {
    await server.close();
  }
}

export function cellRow(c: Cell): string {
  const f = c.conformance?.figures;
  return `| ${c.profile} | ${c.controls ? 'controls' : 'no controls'} | ${c.right}/${c.total} | ${f ? `${f.passed} / ${f.failed} / ${f.skipped}` : 'not run'} | ${(c.detectMs / 1000).toFixed(1)} s + ${(c.conformMs / 1000).toFixed(1)} s |`;
}
