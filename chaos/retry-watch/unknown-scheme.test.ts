import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../contract/index.ts';
import { runChaosSchedule } from '../schedule/run.ts';
import { runRetryWatch } from './run.ts';

// Under a profile whose signature scheme is unknown (null: detection matched no variant, issue
// 47), the retry watch and the chaos schedule run judge nothing: each delivery they would judge
// must verify first. They skip before any request, with the reason and the option that names it.

const unknown = parseProfile({ signature: { scheme: null } });
const REASON = /signature\.scheme is unknown.*--signature-scheme NAME/;

describe('chaos under an unknown signature scheme', () => {
  it('the retry watch skips, sending nothing (the address answers nothing)', async () => {
    const r = await runRetryWatch({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'ck_test_x', profile: unknown });
    expect(r).toMatchObject({ part: 'chaos', status: 'skipped', checks: [], skipReason: expect.stringMatching(REASON) });
  });

  it('the schedule run skips too', async () => {
    const r = await runChaosSchedule({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'ck_test_x', profile: unknown });
    expect(r).toMatchObject({ part: 'chaos', status: 'skipped', checks: [], skipReason: expect.stringMatching(REASON) });
  });
});
