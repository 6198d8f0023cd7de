import { describe, expect, it } from 'vitest';
import { REQUIREMENT_IDS } from '../../contract/index.ts';
import { allChecks } from '../registry.ts';
import { defaultProfile } from '../../contract/index.ts';
import { MUTANTS } from './index.ts';
import { killAll, runAgainst, type MutantOutcome } from './run.ts';
import type { ConformanceResult } from '../runner.ts';

// Self-verification: the suite runs against the unmutated sandbox (zero failures) and
// against each mutant (at least one failure each), all over real HTTP on loopback.
//
// Known defects of the reference sandbox that the suite rightly reports. Each entry names
// the check, the part of its message that identifies the defect, and why it is a defect;
// the baseline may fail on these and on nothing else. Remove an entry once fixed.
const KNOWN_SANDBOX_DEFECTS: Array<{ check: string; match: RegExp; why: string }> = [
  {
    check: 'limits.headers-everywhere',
    match: /→ 413\)/,
    why: 'sandbox/app.ts registers bodyLimit before the plugin middleware, so a 413 leaves without X-RateLimit-* (spec part 8: "Responses carry the headers")',
  },
];

describe('mutants', () => {
  it('has at least 40 mutants, each naming a rule and killers that exist', () => {
    expect(MUTANTS.length).toBeGreaterThanOrEqual(40);
    const ids = new Set(allChecks(defaultProfile).map((c) => c.id));
    for (const m of MUTANTS) {
      expect(m.killers.length, m.id).toBeGreaterThan(0);
      for (const k of m.killers) expect(ids.has(k), `${m.id} killer ${k}`).toBe(true);
      if (!m.strictOnly) expect(REQUIREMENT_IDS.has(m.rule), `${m.id} rule ${m.rule}`).toBe(true);
    }
  });

  it('passes the unmutated sandbox and kills every mutant over real HTTP', { timeout: 240_000 }, async () => {
    const [baseline, outcomes] = await Promise.all([
      runAgainst((req, next) => next(req)) as Promise<ConformanceResult>,
      killAll(MUTANTS, 3) as Promise<MutantOutcome[]>,
    ]);
    const failures = baseline.checks.filter((c) => c.status === 'failed');
    const unexplained = failures.filter((f) => !KNOWN_SANDBOX_DEFECTS.some((d) => d.check === f.id && d.match.test(f.message ?? '')));
    expect(unexplained.map((f) => `${f.id}: ${f.message}`)).toEqual([]);
    const skipped = baseline.checks.filter((c) => c.status === 'skipped');
    expect(skipped.map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(baseline.checks.filter((c) => c.status === 'passed').length).toBeGreaterThan(50);

    const alive = outcomes.filter((o) => !o.killed).map((o) => o.id);
    const killed = outcomes.length - alive.length;
    console.log(`mutants: ${killed}/${outcomes.length} killed (${((100 * killed) / outcomes.length).toFixed(1)} %)`);
    for (const o of outcomes) console.log(`  ${o.killed ? 'killed' : 'ALIVE '} ${o.id} ← ${o.by ?? '-'}`);
    expect(alive).toEqual([]);
    // A kill that rests only on a known sandbox defect proves nothing about the mutant.
    const onDefect = outcomes.filter((o) => KNOWN_SANDBOX_DEFECTS.some((d) => d.check === o.by && d.match.test(o.message ?? ''))).map((o) => o.id);
    expect(onDefect).toEqual([]);
  });

  it('lets a profile-only deviation pass without --strict and fails it with --strict', { timeout: 60_000 }, async () => {
    const m = MUTANTS.find((x) => x.strictOnly)!;
    const lax = await runAgainst(m.make(), { only: m.killers });
    expect(lax.checks.map((c) => c.status)).toEqual(m.killers.map(() => 'passed'));
    expect(lax.checks.flatMap((c) => c.notes).join('\n')).toMatch(/profile successStatus/);
    const strict = await runAgainst(m.make(), { only: m.killers, strict: true });
    expect(strict.checks.some((c) => c.status === 'failed')).toBe(true);
  });
});
