import { describe, expect, it } from 'vitest';
import { REQUIREMENT_IDS } from '../../../contract/index.ts';
import { allChecks } from '../../registry.ts';
import { defaultProfile } from '../../../contract/index.ts';
import { MUTANTS } from './index.ts';
import { killAll, runAgainst, type MutantOutcome } from './run.ts';
import type { ConformanceResult } from '../../runner.ts';

// Self-verification: the suite runs against the unmutated sandbox (zero failures, zero
// skips) and against each mutant (at least one failure each), all over real HTTP on loopback.
// The runs with and without controls go side by side: most of their time is killers waiting
// out bounds (a delivery that never comes), which overlap; each run has its own sandboxes.

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

  it.concurrent('passes the unmutated sandbox and kills every mutant over real HTTP', { timeout: 240_000 }, async () => {
    const [baseline, outcomes] = await Promise.all([
      runAgainst((req, next) => next(req)) as Promise<ConformanceResult>,
      killAll(MUTANTS, 3) as Promise<MutantOutcome[]>,
    ]);
    const failures = baseline.checks.filter((c) => c.status === 'failed');
    expect(failures.map((f) => `${f.id}: ${f.message}`)).toEqual([]);
    const skipped = baseline.checks.filter((c) => c.status === 'skipped');
    expect(skipped.map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(baseline.checks.filter((c) => c.status === 'passed').length).toBeGreaterThan(50);

    const alive = outcomes.filter((o) => !o.killed).map((o) => o.id);
    const killed = outcomes.length - alive.length;
    console.log(`mutants: ${killed}/${outcomes.length} killed (${((100 * killed) / outcomes.length).toFixed(1)} %)`);
    for (const o of outcomes) console.log(`  ${o.killed ? 'killed' : 'ALIVE '} ${o.id} ← ${o.by ?? '-'}`);
    expect(alive).toEqual([]);
  });

  it.concurrent('without sandbox controls, passes the unmutated sandbox (only the two clock checks skip) and still kills every mutant', { timeout: 300_000 }, async () => {
    const [baseline, outcomes] = await Promise.all([
      runAgainst((req, next) => next(req), { controls: false }) as Promise<ConformanceResult>,
      killAll(MUTANTS, 3, defaultProfile, false) as Promise<MutantOutcome[]>,
    ]);
    expect(baseline.checks.filter((c) => c.status === 'failed').map((f) => `${f.id}: ${f.message}`)).toEqual([]);
    expect(baseline.checks.filter((c) => c.status === 'skipped').map((c) => c.id).sort()).toEqual(['hooks.retry-schedule', 'lifecycle.maturity']);
    const alive = outcomes.filter((o) => !o.killed).map((o) => o.id);
    console.log(`mutants without controls: ${outcomes.length - alive.length}/${outcomes.length} killed`);
    expect(alive).toEqual([]);
  });

  it('lets a profile-only deviation pass without --strict and fails it with --strict', { timeout: 60_000 }, async () => {
    const m = MUTANTS.find((x) => x.strictOnly)!;
    const lax = await runAgainst(m.install({}), { only: m.killers });
    expect(lax.checks.map((c) => c.status)).toEqual(m.killers.map(() => 'passed'));
    expect(lax.checks.flatMap((c) => c.notes).join('\n')).toMatch(/profile successStatus/);
    const strict = await runAgainst(m.install({}), { only: m.killers, strict: true });
    expect(strict.checks.some((c) => c.status === 'failed')).toBe(true);
  });
});
