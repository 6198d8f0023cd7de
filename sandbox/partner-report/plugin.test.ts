import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../app.ts';
import { rateLimitPlugin } from '../limiter/plugin.ts';
import { webhooksPlugin } from '../webhooks/plugin.ts';
import type { Sender } from '../webhooks/sender.ts';
import { partnerCheckNames } from './checks/index.ts';
import { partnerReportPlugin } from './plugin.ts';
import { formatPartnerReport } from './report.ts';

// Each check against a partner that makes its one mistake, and the clean partner that makes
// none, through the sandbox's fetch door (the stage is the same under every door).

const BASE = 'http://sandbox/v1';
const KEY = 'ck_test_partner_a_growth';
const json = { 'content-type': 'application/json', authorization: `Bearer ${KEY}` };
const lendBody = (userId: string) => JSON.stringify({ userId, asset: 'USDC', amount: '100.00', maturity: '30d' });

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});
const start = (o: SandboxOptions = {}) => (sb = createSandbox({ partnerReport: true, tickMs: 0, ...o }));
const call = (path: string, init: RequestInit = {}) => sb!.fetch(new Request(`${BASE}${path}`, init));
const names = async () => (await sb!.partnerReport()).findings.map((f) => f.check);

describe('partner report', () => {
  it('is empty for a clean partner: JSON bodies, test keys, one order each, a read or two', async () => {
    start();
    const r = await call('/lend', { method: 'POST', headers: json, body: lendBody('clean_1') });
    expect(r.status).toBeLessThan(300);
    const { positionId } = (await r.json()) as { positionId: string };
    await call(`/positions/${positionId}`, { headers: json });
    await call('/users/clean_1/positions', { headers: json });
    const report = await sb!.partnerReport();
    expect(report.findings, formatPartnerReport(report)).toEqual([]);
    expect(report.exchanges).toBe(3);
    expect(report.checks).toEqual(partnerCheckNames());
  });

  it('is refused where the sandbox was started without it', async () => {
    sb = createSandbox({ tickMs: 0 });
    await expect(sb.partnerReport()).rejects.toThrow(/partnerReport: true/);
  });

  it('missing-content-type: a string body that fetch sends as text/plain', async () => {
    start();
    await call('/lend', { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: lendBody('u_ct') });
    const report = await sb!.partnerReport();
    const f = report.findings.find((x) => x.check === 'missing-content-type');
    expect(f?.received).toMatch(/text\/plain/);
    expect(f?.requests[0].target).toBe('/v1/lend');
  });

  it('live-key: names the request, never the key', async () => {
    start();
    const live = 'ck_live_abcdefghijklmnop1234';
    const r = await call('/users/u1/positions', { headers: { authorization: `Bearer ${live}` } });
    expect(r.status).toBe(401);
    const report = await sb!.partnerReport();
    expect(report.findings.map((f) => f.check)).toContain('live-key');
    expect(JSON.stringify(report)).not.toContain(live);
    expect(formatPartnerReport(report)).not.toContain(live);
  });

  it('duplicate-order: the same order body accepted twice within seconds, with both positions', async () => {
    start();
    await call('/lend', { method: 'POST', headers: json, body: lendBody('u_dup') });
    await call('/lend', { method: 'POST', headers: json, body: lendBody('u_dup') });
    await call('/lend', { method: 'POST', headers: json, body: lendBody('u_other') });
    const report = await sb!.partnerReport();
    const dup = report.findings.filter((f) => f.check === 'duplicate-order');
    expect(dup).toHaveLength(1);
    expect(dup[0].received).toMatch(/positions \S+ and \S+/);
    expect(dup[0].partner).toBe('partner_a');
  });

  it('polling: five reads of an unchanged position in a row; four are not a loop', async () => {
    start();
    const { positionId } = (await (await call('/lend', { method: 'POST', headers: json, body: lendBody('u_poll') })).json()) as { positionId: string };
    for (let i = 0; i < 4; i++) await call(`/positions/${positionId}`, { headers: json });
    expect(await names()).not.toContain('polling');
    await call(`/positions/${positionId}`, { headers: json });
    const f = (await sb!.partnerReport()).findings.find((x) => x.check === 'polling');
    expect(f?.received).toMatch(/read 5 times/);
    expect(f?.expected).toMatch(/POST \/webhooks/);
  });

  it('malformed-request: a 400 invalid_request, with the message naming the field', async () => {
    start();
    await call('/lend', { method: 'POST', headers: json, body: JSON.stringify({ userId: 'u', asset: 'USDC', amount: 100 }) });
    const f = (await sb!.partnerReport()).findings.find((x) => x.check === 'malformed-request');
    expect(f?.received).toMatch(/amount/);
  });

  it('rate-limit-ignored: a request before X-RateLimit-Reset is named; one after it is not', async () => {
    let t = 1_000_000;
    const now = () => t;
    start({ plugins: [partnerReportPlugin({ now }), rateLimitPlugin({ now, wallNow: now }), webhooksPlugin({ dispatch: false })] });
    const starter = { authorization: 'Bearer ck_test_partner_a_starter' };
    let refused: Response | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const r = await call('/users/u_rl/positions', { headers: starter });
      if (r.status === 429) refused = r;
    }
    expect(refused?.status).toBe(429);
    t += 5; // straight back in
    expect((await call('/users/u_rl/positions', { headers: starter })).status).toBe(429);
    const f = (await sb!.partnerReport()).findings.filter((x) => x.check === 'rate-limit-ignored');
    expect(f).toHaveLength(1);
    expect(f[0].received).toMatch(/1 request\(s\) within that wait, the first 5 ms after the 429/);
    // A polite client: waits as long as the headers said, then goes on.
    t += Number(refused!.headers.get('retry-after')) * 1000 + 60_000;
    expect((await call('/users/u_rl/positions', { headers: starter })).status).toBe(200);
    expect((await sb!.partnerReport()).findings.filter((x) => x.check === 'rate-limit-ignored')).toHaveLength(1);
  });

  const subscribe = (url: string) => call('/webhooks', { method: 'POST', headers: json, body: JSON.stringify({ url, events: ['position.created'], secret: 'whsec_test_partner_report_secret_1234' }) });

  /** The report once the dispatcher has recorded `n` attempts. */
  const reportAfter = async (n: number) => {
    let report = await sb!.partnerReport();
    for (let i = 0; i < 100 && report.deliveries < n; i++) {
      await new Promise((r) => setTimeout(r, 20));
      report = await sb!.partnerReport();
    }
    return report;
  };

  it('webhook-bad-signature: once the receiver has answered a real delivery, the mis-signed probe answered 200 is named; 401 is not', async () => {
    const probed: Array<{ url: string; headers: Record<string, string> }> = [];
    let status = 200;
    const probeSend: Sender = async (url, _body, headers) => (probed.push({ url, headers }), { status });
    start({ plugins: [partnerReportPlugin({ send: probeSend }), webhooksPlugin({ send: async () => ({ status: 200 }) })] });
    expect((await subscribe('https://partner.example/hooks')).status).toBeLessThan(300);
    expect((await sb!.partnerReport()).findings, 'no probe before a real delivery was answered').toEqual([]);
    expect(probed).toEqual([]);
    await call('/sandbox/trigger', { method: 'POST', headers: json, body: JSON.stringify({ type: 'position.created' }) });
    let report = await reportAfter(2);
    expect(probed.map((s) => s.url)).toEqual(['https://partner.example/hooks']);
    expect(probed[0].headers['x-service-signature']).toBeTruthy();
    expect(report.findings.find((f) => f.check === 'webhook-bad-signature')?.received).toMatch(/200: the forged event was accepted/);
    // A second receiver that answers the probe correctly adds nothing; the first is probed once.
    status = 401;
    await subscribe('https://partner.example/hooks2');
    await call('/sandbox/trigger', { method: 'POST', headers: json, body: JSON.stringify({ type: 'position.created' }) });
    report = await reportAfter(5);
    expect(probed.map((s) => s.url)).toEqual(['https://partner.example/hooks', 'https://partner.example/hooks2']);
    expect(report.findings.filter((f) => f.check === 'webhook-bad-signature')).toHaveLength(1);
  });

  it('webhook-slow and webhook-refused: read from the dispatcher\'s own record of the attempts', async () => {
    const answers: Array<Awaited<ReturnType<Sender>>> = [{ status: null, error: 'no answer within 5000 ms' }, { status: 500 }];
    const send: Sender = async () => answers.shift() ?? { status: 200 };
    start({ plugins: [partnerReportPlugin({ probe: false }), webhooksPlugin({ send })] });
    await subscribe('https://partner.example/hooks');
    for (const type of ['position.created', 'position.created']) await call('/sandbox/trigger', { method: 'POST', headers: json, body: JSON.stringify({ type }) });
    let report = await sb!.partnerReport();
    for (let i = 0; i < 100 && report.deliveries < 2; i++) {
      await new Promise((r) => setTimeout(r, 20));
      report = await sb!.partnerReport();
    }
    expect(report.findings.map((f) => f.check).sort()).toEqual(['webhook-refused', 'webhook-slow']);
    expect(report.findings.find((f) => f.check === 'webhook-refused')?.received).toMatch(/answered 500/);
  });

  it('skips a check by name, refuses an unknown name, and reset() starts clean', async () => {
    expect(() => partnerReportPlugin({ skip: ['no-such-check'] })).toThrow(/unknown check "no-such-check"/);
    const plugin = partnerReportPlugin({ skip: ['duplicate-order'] });
    start({ plugins: [plugin, webhooksPlugin({ dispatch: false })] });
    await call('/lend', { method: 'POST', headers: json, body: lendBody('u_skip') });
    await call('/lend', { method: 'POST', headers: json, body: lendBody('u_skip') });
    await call('/lend', { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: lendBody('u_skip') });
    expect(await names()).toEqual(['missing-content-type']);
    plugin.reset();
    expect((await sb!.partnerReport()).exchanges).toBe(0);
  });

  it('is served at GET /v1/sandbox/partner-report, narrowed to the caller\'s partner by its key', async () => {
    start();
    await call('/lend', { method: 'POST', headers: { authorization: 'Bearer ck_test_partner_b_growth' }, body: lendBody('u_b') });
    const all = (await (await call('/sandbox/partner-report')).json()) as { findings: Array<{ check: string; partner?: string }> };
    expect(all.findings.map((f) => `${f.check}:${f.partner}`)).toEqual(['missing-content-type:partner_b']);
    const mine = (await (await call('/sandbox/partner-report', { headers: { authorization: `Bearer ${KEY}` } })).json()) as { findings: unknown[] };
    expect(mine.findings).toEqual([]);
    expect((await call('/sandbox/partner-report', { method: 'DELETE' })).status).toBe(204);
    expect(((await (await call('/sandbox/partner-report')).json()) as { exchanges: number }).exchanges).toBe(0);
  });
});

describe('the Vitest matcher and the afterAll helper', async () => {
  const { assertCleanPartnerReport, installPartnerMatchers } = await import('./vitest.ts');
  installPartnerMatchers(expect);

  it('fail a report over no request: nothing was judged', async () => {
    start();
    await expect(expect(sb!.partnerReport()).resolves.toHaveNoPartnerFindings()).rejects.toThrow(/no request reached the sandbox/);
    await expect(assertCleanPartnerReport(sb!)).rejects.toThrow(/no request reached the sandbox/);
  });

  it('pass a clean report and fail one with findings, the message listing expected / received and the requests', async () => {
    start();
    await call('/lend', { method: 'POST', headers: json, body: lendBody('m_1') });
    expect(await sb!.partnerReport()).toHaveNoPartnerFindings();
    await expect(assertCleanPartnerReport(sb!)).resolves.toMatchObject({ findings: [] });
    await call('/lend', { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: lendBody('m_2') });
    const report = await sb!.partnerReport();
    expect(() => expect(report).toHaveNoPartnerFindings()).toThrow(/missing-content-type \(partner_a\)[\s\S]*expected Content-Type: application\/json[\s\S]*received 1 request\(s\)[\s\S]*POST \/v1\/lend -> 400/);
    await expect(assertCleanPartnerReport(sb!)).rejects.toThrow(/1 finding\(s\)/);
  });
});
