import { defaultProfile, endpointById, PUBLIC_ENVELOPE_DEFAULTS, RATE_LIMIT_HEADERS } from '../../contract/index.ts';
import type { Reply } from '../../conformance/http.ts';
import { errorText, ok, unwrap, type Detector, type Probe } from '../probe.ts';
import { listedIds } from '../../contract/body-id.ts';

// The public endpoints: the envelope of each (bare, or {data, timestamp}), the markets
// (maturities, id form, lendable assets), the public bucket's size, the accepted analytics
// periods and the default one.

export const PERIOD_CANDIDATES = ['24h', '1d', '7d', '14d', '30d', '60d', '90d', '180d', '365d', '1w', '1m', '3m', '6m', '1y'];

interface Market { id: string; asset: string; maturity: string }

const days = (m: string) => Number.parseInt(m, 10);

/** A public endpoint's path template: the key its profile options go by (publicEnvelope, successStatus). */
const keyOf = (id: string) => endpointById(defaultProfile, id)!.path;

export const publicDetector: Detector = {
  name: 'public endpoints',
  options: [
    ...Object.keys(PUBLIC_ENVELOPE_DEFAULTS).map((k) => `publicEnvelope.${k}`),
    'markets.maturities', 'markets.idSeparator', 'limits.publicBurst',
  ],
  async run(p) {
    const m = await p.call('public.markets');
    envelope(p, keyOf('public.markets'), m);
    publicBurst(p, m);
    const list = ((unwrap(m) as { markets?: unknown })?.markets ?? []) as Market[];
    const good = Array.isArray(list) ? list.filter((x) => x && typeof x.id === 'string' && typeof x.asset === 'string' && typeof x.maturity === 'string') : [];
    if (!ok(m) || good.length === 0) {
      for (const o of ['markets.maturities', 'markets.idSeparator']) p.miss(o, `GET /markets answered ${m.status} without markets`);
    } else {
      p.facts.set('markets', good);
      const maturities = [...new Set(good.map((x) => x.maturity))].sort((a, b) => days(a) - days(b));
      const assets = [...new Set(good.map((x) => x.asset))];
      p.facts.set('maturities', maturities);
      p.facts.set('assets', assets);
      p.set('markets.maturities', maturities, 'high', [m]);
      const x = good[0]!;
      if (x.id.startsWith(x.asset) && x.id.endsWith(x.maturity) && x.id.length > x.asset.length + x.maturity.length) {
        p.set('markets.idSeparator', x.id.slice(x.asset.length, x.id.length - x.maturity.length), 'high', [m], `market id ${x.id}`);
      } else p.miss('markets.idSeparator', `market id ${x.id} is not asset + separator + maturity`);
    }
    const first = good[0];
    const reads: Array<[string, (() => Promise<Reply>) | undefined]> = [
      ['public.orderbook', first ? () => p.call('public.orderbook', { params: { id: first.id } }) : undefined],
      ['public.rates', () => p.call('public.rates')],
      ['public.tvl', () => p.call('public.tvl')],
      ['public.volume', () => p.call('public.volume')],
      ['public.rateSeries', () => p.call('public.rateSeries')],
      ['public.vaults', () => p.call('public.vaults')],
    ];
    for (const [id, read] of reads) {
      const key = keyOf(id);
      if (!read) {
        p.miss(`publicEnvelope.${key}`, 'no market id to read an order book of');
        continue;
      }
      const r = await read();
      envelope(p, key, r);
      if (id === 'public.tvl') p.facts.set('tvl', r);
      if (id === 'public.vaults') {
        // The vault list is not shown by the spec: its items' ids are found, whatever the list is called.
        const vault = listedIds(unwrap(r))[0];
        if (!vault) p.miss(`publicEnvelope.${keyOf('public.vault')}`, `GET ${key} answered ${r.status} with no vault id`);
        else envelope(p, keyOf('public.vault'), await p.call('public.vault', { params: { id: vault } }));
      }
    }
  },
};

function envelope(p: Probe, key: string, r: Reply): void {
  // Its success status, which part 4 leaves open: a public read's 203 is the target's own, known once seen.
  if (ok(r)) p.set(`successStatus.GET ${key}`, r.status, 'high', [r]);
  const j = r.json as Record<string, unknown> | undefined;
  if (!ok(r) || !j || typeof j !== 'object') return p.miss(`publicEnvelope.${key}`, `GET ${key} answered ${r.status} without a JSON object`);
  const wrapped = 'data' in j && 'timestamp' in j;
  p.set(`publicEnvelope.${key}`, wrapped ? 'data' : 'bare', 'high', [r], wrapped ? 'the payload is under data beside timestamp' : 'the payload is the body itself');
}

/** The public bucket: its Limit when Limit is the burst, else Remaining + 1 on a first call. */
function publicBurst(p: Probe, r: Reply): void {
  const limit = Number(r.headers[RATE_LIMIT_HEADERS.limit.toLowerCase()]);
  const remaining = Number(r.headers[RATE_LIMIT_HEADERS.remaining.toLowerCase()]);
  if (p.fact('limitHeader') === 'burst' && Number.isFinite(limit)) return p.set('limits.publicBurst', limit, 'high', [r], `${RATE_LIMIT_HEADERS.limit} is the burst (see limits.limitHeader)`);
  // The run's first keyless answer that carries Remaining (the rates detector asks its candidates
  // without a key, before this one): read there, no token has refilled between calls yet. Counting
  // the calls between it and a later answer read one too many when a token refilled meanwhile
  // (91 for 90 in CI, at 60 a minute on a loaded machine).
  const rem = RATE_LIMIT_HEADERS.remaining.toLowerCase();
  const first = p.seen.find((s) => !s.keyed && s.reply.headers[rem] !== undefined)?.reply ?? r;
  const firstRemaining = Number(first.headers[rem]);
  if (Number.isFinite(firstRemaining)) return p.set('limits.publicBurst', firstRemaining + 1, 'low', [first], `${RATE_LIMIT_HEADERS.remaining} + 1 on this run's first keyless call: right only when this address's bucket was full`);
  if (Number.isFinite(remaining)) return p.set('limits.publicBurst', remaining + 1, 'low', [r], `${RATE_LIMIT_HEADERS.remaining} + 1 on this public call: right only when this address's bucket was full`);
  p.miss('limits.publicBurst', 'no rate-limit headers on a public reply');
}

/** Accepted periods: those an invalid period's error lists, each confirmed; else the candidates. */
export const periodsDetector: Detector = {
  name: 'analytics periods',
  options: ['markets.periods', 'markets.defaultPeriod'],
  async run(p) {
    const bad = await p.call('public.tvl', { query: { period: '7q' } });
    const listed = [...new Set(errorText(bad).match(/\b\d+[hdwmy]\b/g) ?? [])];
    const candidates = listed.length ? listed : PERIOD_CANDIDATES;
    const accepted: string[] = [];
    const evidence: Reply[] = [bad];
    for (const c of candidates) {
      const r = await p.call('public.tvl', { query: { period: c } });
      if (ok(r)) accepted.push(c);
      if (evidence.length < 4 || r.status === 429) evidence.push(r);
    }
    const limited = evidence.find((r) => r.status === 429);
    if (limited) {
      for (const o of periodsDetector.options) p.miss(o, `the public rate limit answered 429 during the probe (the bucket was spent, e.g. by an earlier run from this address): rerun after ${limited.headers['retry-after'] ?? 'a minute'} s`);
      return;
    }
    if (!accepted.length) p.miss('markets.periods', `no period of ${candidates.join(', ')} was accepted`);
    else p.set('markets.periods', accepted, listed.length ? 'high' : 'medium', evidence, listed.length ? 'the invalid period\'s error listed them; each was accepted' : `the accepted ones among ${candidates.join(', ')}`);
    const tvl = p.fact<Reply>('tvl');
    const period = (unwrap(tvl ?? ({} as Reply)) as { period?: unknown } | undefined)?.period;
    if (typeof period === 'string' && accepted.includes(period)) p.set('markets.defaultPeriod', period, 'high', [tvl], 'GET /analytics/tvl without a period names the one it used');
    else p.miss('markets.defaultPeriod', 'the series without a period does not name an accepted period');
  },
};
