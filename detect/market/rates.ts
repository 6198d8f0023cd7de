import { RATES_PATH_CANDIDATES } from '../../contract/routes.ts';
import { defaultProfile, endpointById, endpointTable, RATE_LIMIT_HEADERS, TIERS, ratesResponse } from '../../contract/index.ts';
import type { Reply } from '../../conformance/http.ts';
import { ok, type Detector, type Probe, successOption } from '../probe.ts';

// The rates path among candidates (the spec leaves it open), and from the same replies the
// rate-limit header units: whether X-RateLimit-Limit is a tier's burst or its per-minute
// rate, and X-RateLimit-Reset's unit judged by its magnitude against the clock.
//
// The get-rates path is in the spec's AUTHENTICATED table (part 4), and GET /markets/rates is in
// its public one: a candidate is the path only when it answers a rates body with the key AND is
// refused without one (it draws from the key's bucket, not the public one). A public rates
// endpoint taken for it made the auth check expect a 401 from a public endpoint and the load
// step measure the public bucket against tier figures (issue 47, cause 1).

/** Where the get-rates path is looked for: the contract's list of the open point (contract/routes.ts). */
export { RATES_PATH_CANDIDATES };

/** The public rates endpoint of part 4: never the authenticated get-rates path. */
export const PUBLIC_RATES_PATH = endpointById(defaultProfile, 'public.rates')!.path;

/** Refused without a key, as an authenticated endpoint is (part 5: 401; a 403 refuses too). */
export const refusedWithoutKey = (r: Reply) => r.status === 401 || r.status === 403;

/** With the key: a rates body; without: refused. The keyless reply is returned as evidence. */
async function keyedRates(p: Probe, path: string, r: Reply): Promise<Reply | undefined> {
  if (!ok(r) || !ratesResponse.safeParse(r.json).success) return undefined;
  const bare = await p.pub('GET', path);
  return refusedWithoutKey(bare) ? bare : undefined;
}

export const ratesDetector: Detector = {
  name: 'rates path and rate-limit headers',
  options: ['ratesPath', successOption('rates.get'), 'limits.limitHeader', 'limits.resetUnit'],
  async run(p) {
    const tried: Reply[] = [];
    const publicToo: string[] = [];
    for (const path of RATES_PATH_CANDIDATES) {
      const r = await p.api('GET', path);
      tried.push(r);
      const bare = await keyedRates(p, path, r);
      if (bare) {
        p.facts.set('ratesPath', path);
        p.set('ratesPath', path, 'high', [r, bare], `first of ${RATES_PATH_CANDIDATES.join(', ')} answering a rates body with the key and ${bare.status} without one`);
        p.set(successOption('rates.get'), r.status, 'high', [r]);
        break;
      }
      if (ok(r) && ratesResponse.safeParse(r.json).success) publicToo.push(path);
    }
    if (!p.facts.has('ratesPath')) {
      const fromDoc = await ratesPathFromOpenApi(p, tried, publicToo);
      if (fromDoc) {
        p.facts.set('ratesPath', fromDoc.path);
        p.set('ratesPath', fromDoc.path, 'high', [fromDoc.doc, fromDoc.reply], `no candidate of ${RATES_PATH_CANDIDATES.join(', ')} answered a rates body only with a key; the target's own OpenAPI document names ${fromDoc.path}, which did`);
        p.set(successOption('rates.get'), fromDoc.reply.status, 'high', [fromDoc.reply]);
      } else {
        const open = publicToo.length ? `; ${publicToo.join(', ')} answered one without a key too (public, not the authenticated get-rates path)` : '';
        p.miss('ratesPath', `no candidate answered a rates body with the key and a refusal without it: ${tried.map((r) => r.status).join(', ')} for ${RATES_PATH_CANDIDATES.join(', ')}${open}, and no OpenAPI document of the target (${OPENAPI_DOC_PATHS.join(', ')}) named a GET that did (${PUBLIC_RATES_PATH} is the spec's public endpoint, never taken); give it as ratesPath in the profile file`);
      }
    }
    rateLimitUnits(p, tried[tried.length - 1]!);
  },
};

/** GET paths the table gives besides the get-rates path (part 4, and lendcheck's controls): none of them is the rates path. */
const SPEC_GET_PATHS = endpointTable(defaultProfile).filter((e) => e.method === 'GET' && e.id !== 'rates.get').map((e) => e.path);
/** Nor is any path of the controls' family or the public analytics' (their first segment, from the table). */
const OTHER_FAMILIES = ['sandbox.clock', 'public.tvl'].map((id) => `/${endpointById(defaultProfile, id)!.path.split('/')[1]}`);

/** Where a target may serve its own OpenAPI document, under the base URL (the gate's contract step looks there too). */
export const OPENAPI_DOC_PATHS = ['/openapi.json', '/openapi', '/swagger.json', '/docs/openapi.json'];

/**
 * A rates path outside the candidates, read from the target's own OpenAPI document: each GET there without
 * path parameters, not a path of the spec's table, is asked (those whose name holds "rate" first: the spec
 * gives no name, so a name is only an order), and the first to answer a rates body is it (an answer, not the
 * document's word alone).
 */
async function ratesPathFromOpenApi(p: Parameters<Detector['run']>[0], tried: Reply[], publicToo: string[]): Promise<{ path: string; doc: Reply; reply: Reply } | undefined> {
  const prefix = p.http.baseUrl.pathname.replace(/\/$/, '');
  for (const at of OPENAPI_DOC_PATHS) {
    const doc = await p.api('GET', at);
    const paths = ok(doc) ? (doc.json as { paths?: Record<string, { get?: unknown }> } | undefined)?.paths : undefined;
    if (!paths || typeof paths !== 'object') continue;
    const named = (p: string) => (/rate/i.test(p) ? 0 : 1);
    const gets = Object.entries(paths)
      .map(([raw, item]) => ({ path: prefix && raw.startsWith(`${prefix}/`) ? raw.slice(prefix.length) : raw, item }))
      .filter(({ path, item }) => item?.get && !path.includes('{') && !SPEC_GET_PATHS.includes(path) && !OTHER_FAMILIES.some((f) => path.startsWith(f)) && !RATES_PATH_CANDIDATES.includes(path) && !OPENAPI_DOC_PATHS.includes(path))
      .sort((a, b) => named(a.path) - named(b.path));
    for (const { path } of gets) {
      const r = await p.api('GET', path);
      tried.push(r);
      if (await keyedRates(p, path, r)) return { path, doc, reply: r };
      if (ok(r) && ratesResponse.safeParse(r.json).success) publicToo.push(path);
    }
  }
  return undefined;
}

/** Limit against the tier table, Reset against the clock: each unit has its own magnitude. */
export function rateLimitUnits(p: Probe, r: Reply): void {
  const limit = Number(r.headers[RATE_LIMIT_HEADERS.limit.toLowerCase()]);
  const reset = Number(r.headers[RATE_LIMIT_HEADERS.reset.toLowerCase()]);
  if (!Number.isFinite(limit)) p.miss('limits.limitHeader', `no numeric ${RATE_LIMIT_HEADERS.limit} on an authenticated reply`);
  else {
    const tiers = Object.values(TIERS);
    const burst = tiers.some((t) => t.burst === limit);
    const perMinute = tiers.some((t) => t.perMinute === limit);
    if (burst !== perMinute) {
      p.set('limits.limitHeader', burst ? 'burst' : 'per-minute', 'high', [r], `${RATE_LIMIT_HEADERS.limit} ${limit} is a tier's ${burst ? 'burst' : 'per-minute rate'} in the spec's table`);
      p.facts.set('limitHeader', burst ? 'burst' : 'per-minute');
    } else p.miss('limits.limitHeader', `${RATE_LIMIT_HEADERS.limit} ${limit} is neither a tier's burst nor its per-minute rate (a custom tier?)`);
  }
  const unit = resetUnitOf(reset, Date.now());
  if (unit) p.set('limits.resetUnit', unit, 'high', [r], `${RATE_LIMIT_HEADERS.reset} ${reset} against the clock ${Date.now()} ms`);
  else p.miss('limits.resetUnit', `${RATE_LIMIT_HEADERS.reset} ${r.headers[RATE_LIMIT_HEADERS.reset.toLowerCase()] ?? '(absent)'} fits no unit`);
}

/** Unix ms and Unix seconds sit within a day of the clock; a delta is at most a day. */
export function resetUnitOf(v: number, nowMs: number): 'delta-seconds' | 'unix-seconds' | 'unix-ms' | undefined {
  if (!Number.isFinite(v) || v < 0) return undefined;
  const day = 86_400;
  if (Math.abs(v - nowMs) <= day * 1000) return 'unix-ms';
  if (Math.abs(v - nowMs / 1000) <= day) return 'unix-seconds';
  if (v <= day) return 'delta-seconds';
  return undefined;
}
