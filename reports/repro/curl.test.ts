import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Exchange, Reproduction } from '../../kernel/results.ts';
import { createRedactor } from '../redact.ts';
import { curlLines, curlOf, reproductionText, shellWord } from './curl.ts';

const x = (over: Partial<Exchange> = {}): Exchange => ({
  method: 'GET',
  url: 'http://127.0.0.1:1/v1/rates',
  status: 200,
  requestHeaders: { accept: 'application/json', authorization: 'Bearer ck_test_***' },
  responseHeaders: {},
  responseBody: '{"ok":true}',
  durationMs: 1,
  credential: 'LENDCHECK_API_KEY',
  ...over,
});
const repro = (exchanges: Exchange[], over: Partial<Reproduction> = {}): Reproduction => ({ exchanges, omitted: 0, vars: {}, deliveries: [], ...over });

/** What bash makes of one word: printf receives it as its argument. */
const asBash = (word: string, env: Record<string, string> = {}) => execFileSync('bash', ['-c', `printf %s ${word}`], { env: { PATH: process.env.PATH, ...env } }).toString();

describe('curl lines of a reproduction', () => {
  it('writes the key as its variable, the method, the headers that matter and the body', () => {
    expect(curlOf(x())).toBe(`curl -sS -i -w '\\n' 'http://127.0.0.1:1/v1/rates' -H "Authorization: Bearer $LENDCHECK_API_KEY"`);
    const post = curlOf(x({ method: 'POST', requestHeaders: { 'content-type': 'application/json', 'x-idempotency': 'a' }, requestBody: '{"a":"it\'s"}', credential: undefined }));
    expect(post).toBe(`curl -sS -i -w '\\n' -X POST 'http://127.0.0.1:1/v1/rates' -H 'content-type: application/json' -H 'x-idempotency: a' --data-raw '{"a":"it'\\''s"}'`);
  });

  it('quotes so that bash passes every value through untouched, and expands only the variables', () => {
    for (const v of [`{"a":"$HOME \`id\` \\\\ ' \\" !x"}`, "it's", '', '*', '$(id)']) expect(asBash(shellWord(v))).toBe(v);
    const body = '{"url":"http://rx/lendcheck-hook","secret":"whsec_***"}';
    const word = shellWord(body, { LENDCHECK_RECEIVER_URL: 'http://rx/lendcheck-hook' });
    expect(word).toBe(`'{"url":"'"$LENDCHECK_RECEIVER_URL"'","secret":"'"$LENDCHECK_WEBHOOK_SECRET"'"}'`);
    expect(asBash(word, { LENDCHECK_RECEIVER_URL: 'http://mine/hook', LENDCHECK_WEBHOOK_SECRET: 'whsec_mine' })).toBe('{"url":"http://mine/hook","secret":"whsec_mine"}');
    // A "secret" member the redactor masked whole is the secret's variable too.
    expect(shellWord('{"secret":"***"}')).toBe(`'{"secret":"'"$LENDCHECK_WEBHOOK_SECRET"'"}'`);
  });

  it('survives the redactor every output passes through: the variables are no keys', () => {
    const text = reproductionText({ reproduction: repro([x(), x({ method: 'POST', requestBody: '{"url":"u","secret":"whsec_***"}', requestHeaders: { authorization: 'Bearer ck_test_***' } })]) }).join('\n');
    expect(createRedactor(['ck_test_partner_a_scale']).text(text)).toBe(text);
    expect(text).toMatch(/^# reproduce; set \$LENDCHECK_API_KEY \(the --api-key\), \$LENDCHECK_WEBHOOK_SECRET \(a webhook signing secret/m);
  });

  it('folds a run of the same request into one loop with the answers counted, and says what it left out', () => {
    const burst = [...Array(3)].map(() => x()).concat([x({ status: 429, responseBody: '{"error":{"code":"rate_limit_exceeded"}}' })]);
    const lines = curlLines(repro(burst));
    expect(lines[0]).toMatch(/^for i in \$\(seq 4\); do curl -sS -i .*; done$/);
    expect(lines[1]).toBe('#   → 200 ×3, 429 ×1; the last: 429 {"error":{"code":"rate_limit_exceeded"}}');
    const many = [...Array(8)].map((_, i) => x({ url: `http://h/v1/p${i}` }));
    expect(curlLines(repro(many, { omitted: 40 }))).toContain('# … 40 more exchanges left out here (the first and the last are kept)');
  });

  it('adds the seed, the shrunk input, the deliveries and a timeline', () => {
    const text = reproductionText({
      reproduction: repro([x()], { seed: 7, input: '[]', deliveries: [{ atMs: 0, method: 'POST', headers: { host: 'h', 'x-service-signature': 't=1,v1=abcd1234…' }, body: '{"id":"evt_1"}', status: 200 }], timeline: 'attempt 1: sent\nattempt 2: due' }),
    });
    expect(text).toEqual(expect.arrayContaining(['# seed: 7 (lendcheck conformance --seed 7)', '# smallest failing input (shrunk): []', '# delivery received at +0 ms: POST (answered 200)', '#   x-service-signature: t=1,v1=abcd1234…', '#   {"id":"evt_1"}', '# timeline:', '#   attempt 2: due']));
    expect(text.join('\n')).not.toContain('host: h');
  });
});
