import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeReports, createReporters, REPORTER_NAMES, ReportRun, readRunSummary } from './writers.ts';
import { fixtureRunSummary, FIXTURE_KEYS } from './fixture.ts';
import { esc } from './html-escape.ts';
import { renderReportPage } from './html-page.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lendcheck-reports-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function allFiles(d: string): string[] {
  return readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? allFiles(join(d, n)) : [join(d, n)]));
}

describe('report writers', () => {
  it('the map of reporters is the list of valid names', () => {
    expect(REPORTER_NAMES).toEqual(['html', 'junit', 'json']);
    expect(() => createReporters(['pdf'])).toThrow(/unknown reporter "pdf": valid names are html, junit, json/);
  });

  it('refuses input that is not a run summary, naming the field', async () => {
    await expect(writeReports({ runId: 'x', verdict: 'maybe' }, { reportDir: dir })).rejects.toThrow(/invalid run summary: verdict/);
  });

  it('writes index.html, junit.xml and summary.json under <dir>/<run-id>/', async () => {
    const run = fixtureRunSummary();
    const { dir: out, files } = await writeReports(run, { reportDir: dir });
    expect(out).toBe(join(dir, run.runId));
    expect(files.map((f) => f.slice(out.length + 1)).sort()).toEqual(['index.html', 'junit.xml', 'summary.json']);

    const page = readFileSync(join(out, 'index.html'), 'utf8');
    expect(page).toContain('id="verdict">FAILED<');
    expect(page).toContain(run.target);
    expect(page).toContain('5 min 07 s');
    // Self-contained: no script, no external stylesheet or image, charts inline.
    expect(page).not.toMatch(/<script|<link|<img|<iframe|@import|url\((?!#)/i);
    expect((page.match(/<svg/g) ?? []).length).toBe(5); // four load charts + one timeline
    // Coverage rows name the requirement and its spec text; the failure shows its exchange.
    expect(page).toContain('<code>ERR-insufficient_funds-details</code>');
    expect(page).toContain(esc('POST http://127.0.0.1:41873/v1/users/u-42/withdraw'));
    expect(page).toContain('received number 12.5');
    expect(page).toContain('limit (60/min)');

    const summary = readRunSummary(join(out, 'summary.json'));
    expect(summary.parts.map((p) => p.part)).toEqual(['contract', 'conformance', 'load', 'chaos', 'certify']);
    expect(summary.verdict).toBe('failed');

    const xml = readFileSync(join(out, 'junit.xml'), 'utf8');
    // 20 checks, and one case per timeline event (3), the failed event among the failures.
    expect(xml).toMatch(/<testsuites[^>]*tests="23"[^>]*failures="3"[^>]*skipped="1"/);
    expect(xml).toContain('<testsuite name="conformance: conformance suite"');
    expect(xml).toContain('message="expected error.details.available to be a decimal string / received number 12.5"');
    expect(xml).toMatch(/<skipped\/>\s*<system-out>\s*<!\[CDATA\[skipped: no ck_live_ key/);
  });

  it('a receiver rule conformance leaves uncovered links the certify check that covers it, with its status', () => {
    const page = renderReportPage(fixtureRunSummary());
    const row = page.split('<tr').find((r) => r.includes('<code>HOOK-invalid-401</code>'))!;
    expect(row).toMatch(/<a href="#part-certify-[^"]+">certify<\/a> <code>bad-signature-401<\/code>/);
    expect(row).toMatch(/not a conformance rule: see certify/);
    // A row nothing covers stays uncovered.
    expect(page.split('<tr').find((r) => r.includes('<code>SHAPE-orderbook</code>'))).toMatch(/uncovered/);
  });

  it('escapes HTML coming from results', async () => {
    const run = fixtureRunSummary({ failing: false });
    run.runId = 'escape-test';
    run.parts[1].checks[0].title = '<img src=x onerror=alert(1)> & "quoted"';
    const { dir: out } = await writeReports(run, { reportDir: dir, reporters: ['html'] });
    const page = readFileSync(join(out, 'index.html'), 'utf8');
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quoted&quot;');
    expect(page).toContain('id="verdict">PASSED<');
  });

  it('a run fed part by part gets its verdict from the parts, and writes each part as it lands', async () => {
    const parts = fixtureRunSummary({ failing: false }).parts;
    const run = new ReportRun({ runId: 'incremental', target: 't', profile: 'p', startedAt: new Date(Date.now() - 1500).toISOString() }, { reportDir: dir });
    await run.begin();
    await run.part(parts[0]);
    expect(readdirSync(join(dir, 'incremental', 'parts'))).toEqual(['01-contract.json']);
    await run.part({ ...parts[1], status: 'skipped', skipReason: 'no key per tier', checks: [] });
    const { summary } = await run.end();
    expect(summary.verdict).toBe('passed');
    expect(summary.durationMs).toBeGreaterThanOrEqual(1500);
    await run.part({ ...parts[2], status: 'failed' });
    expect((await run.end()).summary.verdict).toBe('failed');
    const xml = readFileSync(join(dir, 'incremental', 'junit.xml'), 'utf8');
    expect(xml).toContain('skipped: no key per tier');
  });

  it('cuts very long bodies in the page, saying how much was left out', async () => {
    const run = fixtureRunSummary();
    run.runId = 'long-body';
    run.parts[1].checks.find((c) => c.exchange)!.exchange!.requestBody = 'x'.repeat(10_000);
    const { dir: out } = await writeReports(run, { reportDir: dir, reporters: ['html', 'json'] });
    const page = readFileSync(join(out, 'index.html'), 'utf8');
    expect(page).toContain(`${'x'.repeat(4096)}… (5904 more characters)`);
    expect(page).not.toContain('x'.repeat(4097));
    expect(readFileSync(join(out, 'summary.json'), 'utf8')).toContain('x'.repeat(10_000));
  });

  it('rejects a run id that would escape the report directory', async () => {
    const run = fixtureRunSummary();
    run.runId = '../outside';
    await expect(writeReports(run, { reportDir: dir })).rejects.toThrow(/invalid run id/);
  });
});

describe('no key or secret reaches a report', () => {
  it('keys and secrets in exchanges, messages and notes appear in no written file', async () => {
    const run = fixtureRunSummary({ withSecrets: true });
    run.runId = 'secrets';
    // Put every kind of credential everywhere a part could: headers, bodies, messages, figures.
    const c = run.parts[1].checks.find((x) => x.exchange)!;
    c.exchange!.requestHeaders['x-api-key'] = 'unprefixed-partner-key-42';
    c.exchange!.requestBody = JSON.stringify({ url: 'http://127.0.0.1:9/h', events: ['position.matched'], secret: FIXTURE_KEYS.secret });
    c.message = `expected 401 for ${FIXTURE_KEYS.live} / received 200`;
    run.parts[4].checks[0].message = `signed with ${FIXTURE_KEYS.secret}`;
    run.parts[2].figures.key = FIXTURE_KEYS.growth;
    run.target = `http://127.0.0.1:1/v1?key=${FIXTURE_KEYS.growth}`;
    const given = 'opaque-key-given-with-api-key';
    run.parts[3].checks[0].message = `Authorization: Token ${given}`;

    const raw = JSON.stringify(run);
    for (const s of [...Object.values(FIXTURE_KEYS), 'unprefixed-partner-key-42', given]) expect(raw).toContain(s);

    const { dir: out } = await writeReports(run, { reportDir: dir, secrets: [given] });
    const files = allFiles(out);
    expect(files.length).toBeGreaterThanOrEqual(3 + run.parts.length);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      for (const s of [...Object.values(FIXTURE_KEYS), 'unprefixed-partner-key-42', given]) {
        expect(text.includes(s), `${s} found in ${f}`).toBe(false);
      }
      expect(text).not.toMatch(/ck_(test|live)_[A-Za-z0-9]/);
      expect(text).not.toMatch(/whsec_[A-Za-z0-9]/);
      expect(text).not.toMatch(/Bearer (?!(ck_(test|live)_)?\*\*\*)\S/);
    }
    // The masks show what was there, so the report still reads.
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toMatch(/Bearer (ck_(test|live)_)?\*\*\*/);
  });
});
