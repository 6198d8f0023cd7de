import { describe, expect, it } from 'vitest';
import * as v from './option-values.ts';
import { DEFAULT_REPORT_DIR, REPORTER_NAMES } from '../../reports/writers.ts';
import { STEP_NAMES } from '../gate/steps.ts';
import { SCENARIOS } from '../load/env.ts';
import { DEFAULT_MAX_WAIT_MS } from '../../conformance/budget/budget.ts';
import { DEFAULT_MAX_REQUESTS, FULL_DETECTION_REQUESTS } from '../../detect/budget.ts';
import { DEFAULT_WATCHED_RETRIES } from '../../chaos/retry-watch/run.ts';
import { METRICS_PATH } from '../../sandbox/metrics/plugin.ts';
import { DEFAULT_KEYS } from '../../sandbox/auth/keys.ts';
import { faultNames } from '../../sandbox/faults/index.ts';
import { defaultHistoryPath } from '../../reports/history/store.ts';
import { PLAN_NAMES, PLANS } from '../../conformance/plans.ts';

// --help shows these literals; each must be what its owner really uses.
describe('option-values: the literals --help shows match their owners', () => {
  it('each value', () => {
    expect(v.DEFAULT_REPORT_DIR).toBe(DEFAULT_REPORT_DIR);
    expect(v.DEFAULT_HISTORY_FILE).toBe(defaultHistoryPath());
    expect(v.REPORTER_NAMES).toEqual(REPORTER_NAMES);
    expect(v.GATE_STEP_NAMES).toEqual(STEP_NAMES);
    expect([...v.LOAD_SCENARIOS]).toEqual([...SCENARIOS]);
    expect(v.DEFAULT_MAX_WAIT_S * 1000).toBe(DEFAULT_MAX_WAIT_MS);
    expect(v.DETECT_DEFAULT_MAX_REQUESTS).toBe(DEFAULT_MAX_REQUESTS);
    expect(v.DETECT_FULL_REQUESTS).toBe(FULL_DETECTION_REQUESTS);
    expect(v.DEFAULT_WATCHED_RETRIES).toBe(DEFAULT_WATCHED_RETRIES);
    expect(v.METRICS_PATH).toBe(METRICS_PATH);
    expect(v.SANDBOX_TEST_KEY).toBe(DEFAULT_KEYS.find((k) => k.tier === 'growth')!.key);
    expect(v.SANDBOX_FAULT_NAMES).toEqual(faultNames());
    expect(v.CONFORMANCE_PLANS.map(([n, about]) => [n, about])).toEqual(PLAN_NAMES.map((n) => [n, PLANS[n].about]));
  });
});
