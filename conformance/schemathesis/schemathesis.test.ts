import { beforeAll, describe, expect, it } from 'vitest';
import { webhookDeletable } from '../../contract/index.ts';
import { defaultPlugins } from '../../sandbox/plugins.ts';
import { startSandboxServer, type SandboxServer } from '../../sandbox/server.ts';
import { checksFromJunit, figuresFromEvents, figuresFromOutput, runSchemathesis } from './run.ts';
import { schemathesisConfig, unsupportedMethodOff } from './config.ts';
import { ensureSchemathesis } from './ensure-schemathesis.mjs';
import { detectProfile } from '../../detect/index.ts';
import { EXAMPLE_PROFILES, exampleProfile } from '../../examples/profiles/load.ts';

const FAILING = `<?xml version="1.0" encoding="utf-8"?>
<testsuites errors="0" failures="1" skipped="0" tests="2" time="1.5">
  <testsuite name="schemathesis" errors="0" failures="1" skipped="0" tests="2" time="1.5">
    <testcase name="POST /lend" time="0.43">
      <failure type="failure" message="ST202">- ST202 Schema-valid request rejected
    curl -X POST -H 'Authorization: Bearer ck_test_leaky' http://127.0.0.1/v1/lend</failure>
    </testcase>
    <testcase name="GET /markets" time="0.2" />
  </testsuite>
</testsuites>`;

describe('Schemathesis JUnit and summary', () => {
  it('makes one check per operation, a failure naming its ST codes, keys masked', () => {
    const checks = checksFromJunit(FAILING, (s) => s.replace(/ck_test_\w+/g, 'ck_test_***'));
    expect(checks.map((c) => [c.id, c.status])).toEqual([['schemathesis:POST /lend', 'failed'], ['schemathesis:GET /markets', 'passed']]);
    expect(checks[0].message).toMatch(/^expected every Schemathesis check to hold \/ received ST202/);
    expect(checks[0].message).not.toContain('ck_test_leaky');
    expect(checks[0].durationMs).toBe(430);
  });

  it('counts run-time errors and each check\'s outcomes from the event stream', () => {
    const ev = [
      { ScenarioFinished: { status: 'success', recorder: { label: 'GET /positions/{positionId}', checks: { a: [{ name: 'object_level_authorization', status: 'success' }, { name: 'not_a_server_error', status: 'failure' }] } } } },
      { ScenarioFinished: { status: 'error', recorder: { label: 'Stateful tests', checks: {} } } },
      { NonFatalError: { info: { message: 'Link NextPage: cannot resolve $response.body#/nextCursor' } } },
    ].map((e) => JSON.stringify(e)).join('\n');
    const f = figuresFromEvents(ev);
    expect(f.errors).toBe(2);
    expect(f.errorTexts[1]).toMatch(/NextPage/);
    expect(f.checks).toEqual({ object_level_authorization: { success: 1, failure: 0 }, not_a_server_error: { success: 0, failure: 1 } });
  });

  it('writes the config of a run: the toml\'s state rules with the profile\'s statuses, the auth, and no other tuning', () => {
    const strict = exampleProfile('strict-gateway');
    const text = schemathesisConfig(strict, { wfcFile: '/tmp/x/peers.json', peers: ['partner_1', 'partner_2'] });
    // conflict 409, not_a_borrow 422, invalid_asset 400 and an unknown route answered 400 join the lists.
    expect(text).toContain('expected-statuses = ["2xx", "400", "401", "403", "404", "409", "429", "5xx", "422"]');
    expect(text).toContain('expected-statuses = ["2xx", "401", "403", "404", "429", "5xx", "400", "409", "422"]');
    expect(text).toMatch(/\[auth\.wfc\]\npath = "\/tmp\/x\/peers\.json"\npeers = \["partner_1","partner_2"\]/);
    // Invalid data refused with the profile's own status for an open condition (mutator seed 3: an unsupported asset answered 412).
    const own = schemathesisConfig({ ...strict, errors: { ...strict.errors, unsupportedAsset: { code: 'pbcuwu', status: 412 } } }, { headerEnv: 'K' });
    expect(own).toMatch(/\[checks\.negative_data_rejection\]\nexpected-statuses = \["400", "401", "403", "404", "405", "406", "409", "415", "422", "428", "429", "5xx", "412"\]/);
    expect(text).not.toMatch(/headers =/);
    expect(schemathesisConfig(exampleProfile('default'), { headerEnv: 'K' })).toMatch(/^headers = \{ Authorization = "\$\{K\}" \}\n/);
    // unsupported_method wants 405; a profile answering a missing method otherwise turns it off, saying why.
    expect(unsupportedMethodOff(strict)).toMatch(/with 404 \(invalid_request\)/);
    expect(unsupportedMethodOff(exampleProfile('fintech-rest'))).toBeUndefined();
  });

  it('reads the case count from the console summary', () => {
    expect(figuresFromOutput('Test cases:\n  1165 generated, 1165 passed, 32 skipped\n')).toEqual({ cases: 1165, uniqueFailures: 0, casesSkipped: 32 });
    expect(figuresFromOutput('  756 generated, 19 found 19 unique failures, 29 skipped')).toMatchObject({ cases: 756, uniqueFailures: 19 });
  });
});

// All checks and all four phases, seed 7: against the sandbox with its own document, and
// against the sandbox playing each example profile without its controls (as a partner's
// sandbox would be) with the document exported under that profile. Both partners' keys are
// Schemathesis peers, so object_level_authorization runs. Rate limits are off: a 429 is
// documented, but it would starve the stateful phase. Each run ends with 0 failures and 0
// errors; the summary line of each is printed for the record.
const RUNS: Array<{ name: string; controls: boolean }> = [{ name: 'default', controls: true }, ...EXAMPLE_PROFILES.map((name) => ({ name, controls: false }))];

describe('Schemathesis against the sandbox, under every profile it can play', () => {
  let unavailable: string | undefined;
  beforeAll(() => {
    try {
      (ensureSchemathesis as () => string)();
    } catch (e) {
      unavailable = (e as Error).message;
    }
  }, 15 * 60_000);

  for (const run of RUNS) {
    it(`${run.name}${run.controls ? '' : ' (--no-controls)'}: 0 failures, 0 errors, every check and phase`, async (ctx) => {
      if (unavailable) ctx.skip(`Schemathesis cannot be installed here: ${unavailable}`);
      const profile = exampleProfile(run.name);
      const server: SandboxServer = await startSandboxServer({ port: 0, host: '127.0.0.1', profile, controls: run.controls, plugins: defaultPlugins({ rateLimits: false }) });
      try {
        const key = (partner: string) => server.keys.find((k) => k.partnerId === partner)!.key;
        const part = await runSchemathesis({ baseUrl: server.url, apiKey: key('partner_a'), apiKey2: key('partner_b'), profile, controls: run.controls, seed: 7, maxExamples: 10 });
        const failures = part.checks.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.message}`);
        console.log(`schemathesis ${run.name}: ${part.figures.cases} generated, ${part.figures.uniqueFailures} failures, ${part.figures.errors} errors, ${part.figures.casesSkipped ?? 0} skipped; ${part.figures.operations} operations, ${part.figures.objectLevelAuthorization} object_level_authorization checks, ${part.durationMs} ms`);
        expect(failures).toEqual([]);
        expect(part.status).toBe('passed');
        expect(part.figures.errors).toBe(0);
        expect(Number(part.figures.operations)).toBeGreaterThanOrEqual(run.controls ? 25 : 17);
        expect(Number(part.figures.cases)).toBeGreaterThan(300);
        // The peers' check did run (it needs a GET a partner made of its own object).
        expect(Number(part.figures.objectLevelAuthorization)).toBeGreaterThan(0);
      } finally {
        await server.close();
      }
    }, 10 * 60_000);
  }

  // A target tested under the profile `profile detect` found for it (issues 28 and 33): the
  // document states the bodies the spec does not show (typed fields), the ids seen, the bounds
  // the spec does not give only where a refusal was seen (minimal-sandbox takes rates up to 100
  // and any depth, strict-gateway caps depth at 100), and the operations offered beyond the
  // spec's table (minimal-sandbox's DELETE /webhooks/{webhookId} without a list).
  for (const name of EXAMPLE_PROFILES) {
    it(`${name} (--no-controls), under the profile detected from it: 0 failures, 0 errors`, async (ctx) => {
      if (unavailable) ctx.skip(`Schemathesis cannot be installed here: ${unavailable}`);
      const played = exampleProfile(name);
      const server: SandboxServer = await startSandboxServer({ port: 0, host: '127.0.0.1', profile: played, controls: false, plugins: defaultPlugins({ rateLimits: false }) });
      try {
        const key = (partner: string) => server.keys.find((k) => k.partnerId === partner)!.key;
        const detected = await detectProfile({ baseUrl: server.url, apiKey: key('partner_a'), apiKey2: key('partner_b'), maxRequests: 220 });
        expect(Object.keys(detected.merged.responses).length).toBeGreaterThan(3);
        expect(detected.merged.bounds).toEqual(played.bounds);
        expect(webhookDeletable(detected.merged)).toBe(webhookDeletable(played));
        const part = await runSchemathesis({ baseUrl: server.url, apiKey: key('partner_a'), apiKey2: key('partner_b'), profile: detected.merged, controls: false, seed: 7, maxExamples: 10 });
        const failures = part.checks.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.message}`);
        console.log(`schemathesis ${name} (detected profile): ${part.figures.cases} generated, ${part.figures.uniqueFailures} failures, ${part.figures.errors} errors, ${part.figures.casesSkipped ?? 0} skipped; ${part.figures.operations} operations, ${part.durationMs} ms`);
        expect(failures).toEqual([]);
        expect(part.status).toBe('passed');
        expect(part.figures.errors).toBe(0);
        expect(Number(part.figures.cases)).toBeGreaterThan(300);
      } finally {
        await server.close();
      }
    }, 10 * 60_000);
  }
});
