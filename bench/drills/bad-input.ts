import fc from 'fast-check';
import { Pool } from 'undici';
import { defaultProfile, endpoints, type Endpoint } from '../../contract/index.ts';

// A generated corpus of bad requests against any base URL: wrong types, unknown fields,
// non-JSON, bad encodings, odd path parameters and query strings, oversized bodies,
// missing or broken auth. The verdict counts what must never happen: a 5xx, a hang,
// or an error status without the spec's error object.

export interface BadInputTally {
  sent: number;
  byClass: Record<string, number>;
  fiveXx: number;
  hangs: number;
  missingErrorObject: number;
  examples: string[];
}

interface BadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

const weird = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', ' ', '..', '../../etc/passwd', '%00', '%', '%zz', '\u0000', 'null', 'undefined', '-1', '1e309', 'NaN', '0x', "'; DROP TABLE positions;--", 'a'.repeat(5000)),
);

const jsonish = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record({
    userId: fc.oneof(fc.integer(), fc.constant(null), weird, fc.array(fc.string())),
    asset: fc.oneof(weird, fc.integer(), fc.constantFrom('usdc', 'ETH', 'USDC ', 'BTC')),
    amount: fc.oneof(fc.double(), weird, fc.constantFrom('-1', '0', '1e3', '1.0000000000000000000001', '１２', '1,000', 'Infinity')),
    rate: fc.oneof(fc.double(), weird, fc.constant(true)),
    maturity: fc.oneof(weird, fc.integer(), fc.constantFrom('0d', '-30d', '2026-02-30', '30D', '99999999d')),
    mode: fc.oneof(weird, fc.integer()),
    collateral: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.record({ asset: weird, amount: fc.oneof(weird, fc.double()) })),
    borrowAsset: weird,
    borrowAmount: fc.oneof(weird, fc.double()),
    destination: fc.oneof(weird, fc.constantFrom('0x123', `0x${'g'.repeat(40)}`)),
    url: fc.oneof(weird, fc.constantFrom('http://example.com/hook', 'ftp://x', 'https://')),
    events: fc.oneof(fc.array(weird, { maxLength: 3 }), weird),
    secret: fc.oneof(weird, fc.constant('whsec_')),
    autoRollover: fc.oneof(weird, fc.integer()),
    autoRefinance: fc.oneof(weird, fc.integer()),
    seconds: fc.oneof(fc.double(), weird),
  }, { requiredKeys: [] }),
);

const body: fc.Arbitrary<{ kind: string; bytes: Buffer | undefined; type?: string }> = fc.oneof(
  jsonish.map((v) => ({ kind: 'json', bytes: Buffer.from(JSON.stringify(v) ?? 'null'), type: 'application/json' })),
  fc.string({ maxLength: 200 }).map((s) => ({ kind: 'not-json', bytes: Buffer.from(s), type: 'application/json' })),
  fc.uint8Array({ maxLength: 200 }).map((b) => ({ kind: 'bytes', bytes: Buffer.from(b), type: 'application/json' })),
  jsonish.map((v) => ({ kind: 'wrong-type', bytes: Buffer.from(JSON.stringify(v) ?? 'null'), type: 'text/plain' })),
  jsonish.map((v) => ({ kind: 'no-type', bytes: Buffer.from(JSON.stringify(v) ?? 'null'), type: undefined })),
  fc.constant({ kind: 'oversized', bytes: Buffer.from(JSON.stringify({ userId: 'x'.repeat(defaultProfile.limits.maxBodyBytes + 10) })), type: 'application/json' }),
  fc.constant({ kind: 'empty', bytes: undefined, type: 'application/json' }),
);

const query = fc.array(fc.tuple(fc.constantFrom('limit', 'cursor', 'status', 'type', 'depth', 'maturity', 'period', 'asset', 'x'), weird), { maxLength: 4 });

function requestFor(eps: Endpoint[], key: string): fc.Arbitrary<BadRequest & { kind: string }> {
  return fc
    .record({
      e: fc.constantFrom(...eps),
      params: fc.array(weird, { minLength: 3, maxLength: 3 }),
      q: query,
      b: body,
      auth: fc.oneof(
        { weight: 6, arbitrary: fc.constant(`Bearer ${key}`) },
        { weight: 1, arbitrary: fc.constantFrom('', 'Bearer', 'Basic abc', `Bearer ${key}x`, 'Bearer ck_live_0000', `bearer ${key}`) },
      ),
      method: fc.oneof({ weight: 8, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'POST', 'GET') }),
    })
    .map(({ e, params, q, b, auth, method }) => {
      let i = 0;
      const path = e.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(params[i++] ?? 'x') || 'x');
      const qs = q.length ? `?${q.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}` : '';
      const m = method || e.method;
      const headers: Record<string, string> = {};
      if (auth) headers.authorization = auth;
      const sendsBody = m !== 'GET' && m !== 'DELETE';
      if (sendsBody && b.type) headers['content-type'] = b.type;
      return { method: m, path: `${path}${qs}`, headers, body: sendsBody ? b.bytes : undefined, kind: `${e.id}:${sendsBody ? b.kind : 'query'}` };
    });
}

/** Sends `count` generated bad requests, `concurrency` at a time, each with a hard timeout. */
export async function badInputDrill(baseUrl: string, key: string, count: number, opts: { seed?: number; concurrency?: number; timeoutMs?: number } = {}): Promise<BadInputTally> {
  const u = new URL(baseUrl);
  const prefix = u.pathname.replace(/\/$/, '');
  const pool = new Pool(u.origin, { connections: opts.concurrency ?? 16, pipelining: 1 });
  const eps = endpoints(defaultProfile);
  const reqs = fc.sample(requestFor(eps, key), { numRuns: count, seed: opts.seed ?? 42 });
  const tally: BadInputTally = { sent: 0, byClass: {}, fiveXx: 0, hangs: 0, missingErrorObject: 0, examples: [] };
  const note = (s: string) => tally.examples.length < 10 && tally.examples.push(s);
  let next = 0;
  const worker = async () => {
    while (next < reqs.length) {
      const r = reqs[next++]!;
      const cls = r.kind.split(':')[1]!;
      tally.byClass[cls] = (tally.byClass[cls] ?? 0) + 1;
      tally.sent++;
      try {
        const res = await pool.request({
          method: r.method as 'GET',
          path: `${prefix}${r.path}`,
          headers: r.headers,
          body: r.body,
          headersTimeout: opts.timeoutMs ?? 5_000,
          bodyTimeout: opts.timeoutMs ?? 5_000,
        });
        const text = await res.body.text();
        if (res.statusCode >= 500) {
          tally.fiveXx++;
          note(`${res.statusCode} ${r.method} ${r.path.slice(0, 80)} (${cls}): ${text.slice(0, 120)}`);
        }
        if (res.statusCode >= 400) {
          let ok = false;
          try {
            const j = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
            ok = typeof j.error?.code === 'string' && typeof j.error?.message === 'string';
          } catch {
            ok = false;
          }
          if (!ok) {
            tally.missingErrorObject++;
            note(`no error object: ${res.statusCode} ${r.method} ${r.path.slice(0, 80)} (${cls}): ${text.slice(0, 120)}`);
          }
        }
      } catch (e) {
        const code = (e as { code?: string }).code ?? '';
        if (code.includes('TIMEOUT')) {
          tally.hangs++;
          note(`hang: ${r.method} ${r.path.slice(0, 80)} (${cls})`);
        } else {
          // A server that refuses a body by closing the socket early is not a hang; count it as a 5xx-equivalent fault.
          tally.fiveXx++;
          note(`transport error ${code}: ${r.method} ${r.path.slice(0, 80)} (${cls})`);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 16 }, worker));
  await pool.close();
  return tally;
}
