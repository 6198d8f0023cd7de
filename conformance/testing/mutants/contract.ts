import type { PartnerEndpointId } from '../../../contract/index.ts';
import { bodyJson, matches, rewrite, withJson } from './kit.ts';
import { registerMutants } from './mutant.ts';

// Mutants of response shapes and conventions (spec part 2): fields, types, UTC, JSON.

const get = (...ids: PartnerEndpointId[]) => (req: Request, res: Response) => matches(req, ...ids) && res.status === 200;
const post = (id: PartnerEndpointId) => (req: Request, res: Response) => matches(req, id) && res.status < 300;

export const CONTRACT_MUTANTS = registerMutants([
  {
    id: 'shape.position-missing-createdAt',
    breaks: 'a single position answers without createdAt',
    rule: 'SHAPE-position',
    killers: ['endpoint.position.get'],
    install: () => rewrite(get('position.get'), (b) => void delete b.createdAt),
  },
  {
    id: 'shape.amount-as-number',
    breaks: 'a position amount is a JSON number, not a decimal string',
    rule: 'CONV-amount-decimal',
    killers: ['endpoint.position.get'],
    install: () => rewrite(get('position.get'), (b) => ({ ...b, amount: Number(b.amount) })),
  },
  {
    id: 'shape.rate-as-string',
    breaks: 'rates of the rates response are strings',
    rule: 'CONV-rate-fraction',
    killers: ['endpoint.rates.get'],
    install: () => rewrite(get('rates.get'), (b) => ({ ...b, rates: b.rates.map((r: { lendRate: number }) => ({ ...r, lendRate: String(r.lendRate) })) })),
  },
  {
    id: 'shape.rate-as-percent',
    breaks: 'a position rate is given in percent (5 instead of 0.05)',
    rule: 'CONV-rate-fraction',
    killers: ['endpoint.position.get'],
    install: () => rewrite(get('position.get'), (b) => ({ ...b, rate: b.rate * 100 + 1 })),
  },
  {
    id: 'shape.time-not-utc',
    breaks: 'createdAt is given with a +02:00 offset instead of UTC',
    rule: 'CONV-timestamp-utc',
    killers: ['endpoint.position.get'],
    install: () =>
      rewrite(get('position.get'), (b) => {
        const d = new Date(Date.parse(b.createdAt) + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
        return { ...b, createdAt: d };
      }),
  },
  {
    id: 'shape.create-lend-has-type',
    breaks: 'the create-lend response carries type',
    rule: 'SHAPE-create-lend',
    killers: ['endpoint.lend.create'],
    install: () => rewrite(post('lend.create'), (b) => ({ ...b, type: 'lend' })),
  },
  {
    id: 'shape.create-lend-not-pending',
    breaks: 'a new lend is returned active instead of pending',
    rule: 'STATE-create-pending',
    killers: ['endpoint.lend.create'],
    install: () => rewrite(post('lend.create'), (b) => ({ ...b, status: 'active' })),
  },
  {
    id: 'shape.cbt-missing',
    breaks: 'the single position has no cbt object',
    rule: 'SHAPE-position-cbt',
    killers: ['endpoint.position.get'],
    install: () => rewrite(get('position.get'), (b) => void delete b.cbt),
  },
  {
    id: 'shape.list-no-hasMore',
    breaks: 'the position list answers without hasMore',
    rule: 'SHAPE-position-list',
    killers: ['endpoint.positions.list'],
    install: () => rewrite(get('positions.list'), (b) => void delete b.hasMore),
  },
  {
    id: 'shape.market-total-as-number',
    breaks: 'a market totalLent is a number',
    rule: 'SHAPE-market',
    killers: ['endpoint.public.markets'],
    install: () => rewrite(get('public.markets'), (b) => {
      const m = b.data?.markets ?? b.markets;
      for (const x of m) x.totalLent = Number(x.totalLent);
      return b;
    }),
  },
  {
    id: 'shape.orderbook-over-depth',
    breaks: 'the order book returns more than the default depth of 10 levels',
    rule: 'BOOK-depth-default',
    killers: ['endpoint.orderbook.get'],
    install: () =>
      rewrite(get('orderbook.get', 'public.orderbook'), (b) => {
        const book = b.data ?? b;
        book.lends = Array.from({ length: 12 }, (_, i) => ({ rate: 0.01 + i / 1000, amount: '1' }));
        return b;
      }),
  },
  {
    id: 'shape.text-content-type',
    breaks: 'a position is served as text/plain',
    rule: 'EP-json',
    killers: ['endpoint.position.get'],
    install: () => async (req, next) => {
      const res = await next(req);
      if (!get('position.get')(req, res)) return res;
      const h = new Headers(res.headers);
      h.set('content-type', 'text/plain');
      return new Response(await res.text(), { status: res.status, headers: h });
    },
  },
  {
    id: 'shape.matchedAt-missing',
    breaks: 'an active position answers without matchedAt',
    rule: 'SHAPE-position-matchedAt',
    killers: ['lifecycle.match'],
    install: () => rewrite(get('position.get'), (b) => (b.status === 'active' ? (delete b.matchedAt, b) : b)),
  },
  {
    id: 'shape.public-envelope-timestamp-local',
    breaks: 'a public {data, timestamp} answer carries a timestamp without Z',
    rule: 'PUB-envelope',
    killers: ['endpoint.public.rates'],
    install: () => rewrite((req, res) => matches(req, 'public.rates') && res.status === 200, (b) => ({ ...b, timestamp: String(b.timestamp).replace('Z', '') })),
  },
  {
    id: 'profile.lend-status-200',
    breaks: 'POST /lend answers 200 where the profile says 201',
    rule: 'successStatus["POST /lend"]',
    killers: ['endpoint.lend.create'],
    strictOnly: true,
    install: () => async (req, next) => {
      const res = await next(req);
      return matches(req, 'lend.create') && res.status === 201 ? withJson(res, await bodyJson(res), 200) : res;
    },
  },
]);
