import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckResult, Exchange, PartResult } from '../kernel/results.ts';
import { writeReports as writeChaosReports } from '../chaos/report.ts';
import { redact as redactK6Output } from '../cli/load/k6-process.ts';
import { writeReports as writeConformanceReports } from '../conformance/report.ts';
import type { ConformanceResult } from '../conformance/runner.ts';
import { ReportRun, writePartFiles } from './writers.ts';
import { createRedactor } from './redact.ts';
import { writeFailuresFile } from './repro/failures-file.ts';
import { reportToGithub } from './ci/github.ts';
import { Progress } from '../cli/gate/progress.ts';
import { replayLines } from '../cli/replay/print.ts';
import { paint } from './output/color.ts';
import { checkFailed } from '../conformance/suite/failure-error.ts';

// Every report file every subcommand writes goes through the one redactor: each writer below
// is the one its subcommand calls (conformance, load, chaos validate/certify/schedule, gate),
// fed results that carry keys and secrets everywhere a leak could hide; then every file
// written is read back and searched for them.

const KEY = 'ck_test_partnerKEYs3cr3t42';
const LIVE = 'ck_live_productionKEY99';
const HOOK = 'whsec_webhookSECRETvalue77';
// Given on the command line, no known prefix: masked because the subcommand hands it over.
const RAW = 'plain-partner-token-5150';
const BEARER = 'opaqueBearerTok3n';
const LEAKS = [KEY, LIVE, HOOK, RAW, BEARER].map((s) => s.replace(/^(ck_(test|live)_|whsec_)/, ''));

const dir = mkdtempSync(join(tmpdir(), 'lendcheck-nosecrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const exchange: Exchange = {
  method: 'POST',
  url: `http://127.0.0.1:1/v1/webhooks?key=${KEY}`,
  status: 400,
  requestHeaders: { authorization: `Bearer ${KEY}`, 'x-api-key': RAW, 'x-service-signature': `t=1,v1=${'ab'.repeat(32)}` },
  requestBody: JSON.stringify({ url: 'http://x', secret: HOOK, token: RAW }),
  responseHeaders: { 'set-cookie': `s=${RAW}` },
  responseBody: `{"error":{"message":"bad key ${LIVE}, secret ${HOOK}, Authorization: Bearer ${BEARER}"}}`,
  durationMs: 3,
};
const check = (id: string, status: CheckResult['status']): CheckResult => ({
  id,
  title: `a check mentioning ${RAW}`,
  requirements: ['HOOK-post'],
  status,
  durationMs: 1,
  message: status === 'passed' ? undefined : `expected 401 / received 200 with Bearer ${BEARER} and ${KEY} and ${HOOK} and ${RAW}`,
  exchange,
  // A reproduction carries every exchange, a delivery, a shrunk input and a timeline: each a place a key could hide.
  ...(status === 'failed'
    ? {
        reproduction: {
          exchanges: [exchange, { ...exchange, url: `http://127.0.0.1:1/v1/rates`, requestHeaders: { Authorization: `Bearer ${RAW}` }, credential: 'LENDCHECK_API_KEY' }],
          omitted: 0,
          vars: { LENDCHECK_RECEIVER_URL: `http://127.0.0.1:1/hook?token=${RAW}` },
          seed: 7,
          input: JSON.stringify({ apiKey: RAW, secret: HOOK }),
          deliveries: [{ atMs: 0, method: 'POST', headers: { 'x-service-signature': `t=1,v1=${'ab'.repeat(32)}`, authorization: `Bearer ${KEY}` }, body: `{"secret":"${HOOK}","key":"${KEY}"}`, status: 200 }],
          timeline: `attempt 1 with ${KEY} signed by ${HOOK}`,
        },
        internalError: `Error: crashed on ${RAW}\n    at x (${KEY}.ts:1:1)`,
      }
    : {}),
  notes: [`note with ${LIVE} and ${RAW}`],
});
const part = (p: PartResult['part'], status: PartResult['status']): PartResult => ({
  part: p,
  name: `${p} run for ${RAW}`,
  status,
  target: `http://127.0.0.1:1/v1?api_key=${KEY}`,
  profile: 'default',
  startedAt: new Date(0).toISOString(),
  durationMs: 10,
  checks: [check(`${p}.a`, 'failed'), check(`${p}.b`, 'skipped'), check(`${p}.c`, 'passed')],
  timeline: [{ eventId: 'evt_1', type: 'position.matched', expectedMs: [0], observedMs: [0], verdict: 'pending', message: `secret ${HOOK}` }],
  figures: { key: KEY, secret: HOOK },
});

function filesUnder(d: string): string[] {
  return readdirSync(d).flatMap((n) => {
    const f = join(d, n);
    return statSync(f).isDirectory() ? filesUnder(f) : [f];
  });
}

describe('no key or secret reaches a report file', () => {
  it('conformance, load, chaos validate/certify/schedule and gate reports, every file', async () => {
    // conformance: conformance.json + junit.xml (lendcheck conformance)
    const conf: ConformanceResult = { ...part('conformance', 'failed'), profileChoices: [{ option: 'errors.invalidState', expected: '409', followed: false, received: `400 ${KEY}`, check: 'x' }] };
    writeConformanceReports(conf, join(dir, 'conformance'), [RAW]);
    // load: result.json + junit.xml through writePartFiles, and k6's log through its redact (lendcheck load)
    writePartFiles(part('load', 'failed'), join(dir, 'load'), { json: 'result.json', junit: 'junit.xml' }, [RAW]);
    const k6Log = redactK6Output(`time="…" level=info msg="GET /v1/rates Authorization: Bearer ${KEY}" key=${RAW} hook=${HOOK}`, [KEY, RAW]);
    // chaos validate is given no credential (only a recording), so it gets none without a
    // known prefix in its input; every prefixed key and secret in it is still masked.
    const validate = JSON.parse(JSON.stringify(part('chaos', 'incomplete')).replaceAll(RAW, 'raw')) as PartResult;
    writeChaosReports(validate, join(dir, 'chaos'), 'chaos-validate');
    // certify and schedule get the secret and key they were given

    writeChaosReports(part('certify', 'failed'), join(dir, 'chaos'), 'chaos-certify', [HOOK, RAW]);
    writeChaosReports(part('chaos', 'failed'), join(dir, 'chaos'), 'chaos-schedule', [RAW]);
    // gate: html, junit, summary and per-part JSON (lendcheck gate)
    const run = new ReportRun({ runId: 'gate-run', target: 'http://127.0.0.1:1/v1', profile: 'default', startedAt: new Date(0).toISOString() }, { reportDir: join(dir, 'gate'), secrets: [RAW] });
    await run.begin();
    for (const p of ['conformance', 'load', 'chaos', 'certify'] as const) await run.part(part(p, 'failed'));
    const { summary } = await run.end();
    // The gate's failures.json (gate --rerun-failed, replay), written as runGate writes it.
    writeFailuresFile(run.ctx, summary, { baseUrl: `http://127.0.0.1:1/v1?key=${RAW}` });
    // GitHub: the job summary file and the annotations (gate and conformance under GITHUB_ACTIONS).
    const annotations: string[] = [];
    mkdirSync(join(dir, 'github'));
    reportToGithub(summary, createRedactor([RAW]), { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(dir, 'github', 'step-summary.md') }, out: (l) => annotations.push(l) });
    // The terminal: the suite's failure text, the gate's progress and final lines, replay's lines.
    const progress: string[] = [];
    const sink = { write: (s: string) => progress.push(s) } as unknown as NodeJS.WritableStream;
    const p = new Progress(sink as never, createRedactor([RAW]), false, paint(false));
    p.stepEnd(1, 1, summary.parts[0]);
    p.end(summary, undefined);
    const suiteText = checkFailed(summary.parts[0].checks[0], createRedactor([RAW])).message;
    const replay = replayLines([{ failure: { part: 'conformance', ...summary.parts[0].checks[0] }, verdict: 'still failing', message: summary.parts[0].checks[0].message, result: summary.parts[0].checks[0] }], paint(false), createRedactor([RAW]));
    const terminal = [...annotations, ...progress, suiteText, ...replay].join('\n');
    expect(terminal).toContain('curl -sS -i');
    expect(terminal).toContain('"Authorization: Bearer $LENDCHECK_API_KEY"');

    const files = filesUnder(dir);
    expect(files.map((f) => f.slice(dir.length + 1)).sort()).toEqual(
      expect.arrayContaining([
        'conformance/conformance.json', 'conformance/junit.xml', 'load/result.json', 'load/junit.xml',
        'chaos/chaos-validate.json', 'chaos/chaos-validate.junit.xml', 'chaos/chaos-certify.json', 'chaos/chaos-certify.junit.xml',
        'chaos/chaos-schedule.json', 'chaos/chaos-schedule.junit.xml', 'gate/gate-run/index.html', 'gate/gate-run/junit.xml', 'gate/gate-run/summary.json',
        'conformance/failures.json', 'gate/gate-run/failures.json', 'github/step-summary.md',
      ]),
    );
    // The reproductions did reach each new output (so the search below searched them).
    for (const f of ['conformance/failures.json', 'gate/gate-run/failures.json', 'github/step-summary.md', 'gate/gate-run/index.html', 'gate/gate-run/junit.xml']) expect(readFileSync(join(dir, f), 'utf8'), f).toMatch(/attempt 1 with ck_test_\*\*\*/);
    for (const [name, text] of [...files.map((f) => [f, readFileSync(f, 'utf8')] as const), ['k6.log', k6Log] as const, ['terminal', terminal] as const]) {
      for (const leak of LEAKS) expect(text.includes(leak), `${leak} in ${name}`).toBe(false);
      // The signature header shows its first 8 hex digits only.
      expect(text, name).not.toMatch(/(ab){32}/);
    }
    // Masked, not dropped: a reader still sees which environment a key was for.
    expect(readFileSync(join(dir, 'load', 'result.json'), 'utf8')).toContain('Bearer ck_test_***');
    expect(readFileSync(join(dir, 'chaos', 'chaos-validate.junit.xml'), 'utf8')).toMatch(/<skipped[\s\S]*pending: secret whsec_\*\*\*/);
  });
});
