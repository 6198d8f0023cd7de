import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultProfile, SIGNATURE_HEADER } from '../../../contract/index.ts';
import { verifyWebhook } from '../../../signing/signature.ts';
import type { CheckResult } from '../../../kernel/results.ts';
import { createRedactor } from '../../../reports/redact.ts';
import { reproductionText } from '../../../reports/repro/curl.ts';
import { serveWrapped } from '../../embedded.ts';
import { runChecks } from '../../runner.ts';
import { MUTANTS_BY_ID } from './index.ts';

// The done-when of reproductions: for one check of each family, against a mutant that breaks
// the rule, the lines printed for the failure, run as printed by bash with real curl and the
// keys in the environment (never in the lines), show the target's wrong answer again.

const run = promisify(execFile);
const SECRET = 'whsec_reproduction_test_secret_0001';
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of closers) await c();
});

interface Case {
  family: string;
  mutant: string;
  check: string;
  /** What the printed lines' output must show: the wrong answer. */
  wrong: (out: string) => void;
}

/** The body of the last HTTP answer in curl -i output. */
function lastBody(out: string): unknown {
  const last = out.split(/^HTTP\/1\.1 /m).at(-1)!;
  const body = last.slice(last.search(/\r?\n\r?\n/)).trim();
  return JSON.parse(body);
}

const CASES: Case[] = [
  { family: 'endpoints', mutant: 'shape.rate-as-string', check: 'endpoint.rates.get', wrong: (out) => expect(out).toMatch(/^HTTP\/1\.1 200[\s\S]*"lendRate":"0\.\d+"/m) },
  { family: 'errors', mutant: 'error.not-found-400', check: 'errors.position-not-found', wrong: (out) => expect(out).toMatch(/^HTTP\/1\.1 400[\s\S]*"code":"position_not_found"/m) },
  {
    family: 'pagination',
    mutant: 'page.default-10',
    check: 'pagination.default-limit',
    wrong: (out) => {
      expect(lastBody(out)).toMatchObject({ positions: expect.any(Array), hasMore: true });
      expect((lastBody(out) as { positions: unknown[] }).positions).toHaveLength(10);
    },
  },
  { family: 'auth', mutant: 'auth.403-not-401', check: 'auth.missing-header', wrong: (out) => expect(out).toMatch(/^HTTP\/1\.1 403[\s\S]*"code":"authentication_failed"/m) },
  { family: 'limits', mutant: 'limit.429-wrong-code', check: 'limits.burst-429', wrong: (out) => expect(out).toMatch(/^HTTP\/1\.1 429[\s\S]*"code":"too_many_requests"/m) },
  { family: 'fuzz', mutant: 'error.5xx-on-random-body', check: 'fuzz.bodies', wrong: (out) => expect(out).toMatch(/^HTTP\/1\.1 502/m) },
];

async function failedAgainst(mutant: string, check: string) {
  const t = await serveWrapped(MUTANTS_BY_ID.get(mutant)!.install({}), { profile: defaultProfile, validateResponses: false });
  closers.push(() => t.close());
  const r = await runChecks({ baseUrl: t.url, apiKey: t.apiKey, apiKey2: t.apiKey2, burstKey: t.burstKey, keyTiers: t.keyTiers, profile: defaultProfile, only: [check], seed: 20261125 });
  const c = r.checks.find((x) => x.id === check)!;
  expect(c.status, `${check} against ${mutant}: ${c.message}`).toBe('failed');
  return { t, c };
}

/** The lines as the terminal shows them (through the redactor), checked for keys, then run by bash. */
async function runPrinted(c: CheckResult, keys: string[], env: Record<string, string>): Promise<{ text: string; out: string }> {
  const text = createRedactor(keys).text(reproductionText(c).join('\n'));
  for (const k of [...keys, SECRET]) expect(text.includes(k), `a key value in the printed lines`).toBe(false);
  const { stdout } = await run('bash', ['-c', text], { env: { PATH: process.env.PATH, ...env }, timeout: 60_000, maxBuffer: 32 * 1024 * 1024 });
  return { text, out: stdout };
}

describe('the curl lines of a failed check, run as printed, show the wrong answer again', () => {
  for (const k of CASES) {
    it(`${k.family}: ${k.check} against the mutant ${k.mutant}`, async () => {
      const { t, c } = await failedAgainst(k.mutant, k.check);
      const { text, out } = await runPrinted(c, [t.apiKey, t.apiKey2 ?? '', t.burstKey ?? ''], { LENDCHECK_API_KEY: t.apiKey, LENDCHECK_API_KEY_2: t.apiKey2 ?? '', LENDCHECK_BURST_KEY: t.burstKey ?? '' });
      expect(text).toMatch(/^curl |^for i in/m);
      if (k.family === 'fuzz') expect(text).toMatch(/# seed: 20261125[\s\S]*# smallest failing input \(shrunk\): /);
      k.wrong(out);
    });
  }

  it('hooks: hooks.delivery against the mutant hook.signed-with-another-secret (a delivery to your receiver does not verify with your secret)', async () => {
    const { t, c } = await failedAgainst('hook.signed-with-another-secret', 'hooks.delivery');
    const got: Array<{ headers: Record<string, string | string[] | undefined>; raw: Buffer }> = [];
    const rx = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (d: Buffer) => chunks.push(d));
      req.on('end', () => {
        got.push({ headers: req.headers, raw: Buffer.concat(chunks) });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise<void>((r) => rx.close(() => r())));
    // The mutant swaps the secret of subscriptions to a /lendcheck-hook path: the reader's receiver URL here.
    const url = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/lendcheck-hook`;
    const { text } = await runPrinted(c, [t.apiKey], { LENDCHECK_API_KEY: t.apiKey, LENDCHECK_WEBHOOK_SECRET: SECRET, LENDCHECK_RECEIVER_URL: url });
    expect(text).toContain('"$LENDCHECK_RECEIVER_URL"');
    expect(text).toContain('"$LENDCHECK_WEBHOOK_SECRET"');
    expect(text).toMatch(/# delivery received at \+\d+ ms: POST[\s\S]*x-service-signature: /);
    const t0 = Date.now();
    while (!got.some((d) => d.raw.includes('position.matched')) && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 50));
    const d = got.find((x) => x.raw.includes('position.matched'));
    expect(d, 'the printed trigger delivers position.matched to the reader receiver').toBeDefined();
    const v = verifyWebhook(d!.raw, String(d!.headers[SIGNATURE_HEADER]), SECRET, { scheme: defaultProfile.signature.scheme ?? undefined, toleranceSeconds: defaultProfile.signature.toleranceSeconds });
    expect(v.ok).toBe(false);
  });
});
