import { bodyJson, errCode, matches, paramOf, rewrite, urlOf, withJson } from './kit.ts';
import { registerMutants } from './mutant.ts';

// Mutants of the position lifecycle (spec part 3 and 4).

const idOf = (req: Request) => paramOf(req, 'positionId') ?? '';
/** The position a cancel or repay is made on, read with the same key. */
const positionOf = (req: Request) => new Request(urlOf(req, 'position.get', { positionId: idOf(req) }), { headers: req.headers });

export const LIFECYCLE_MUTANTS = registerMutants([
  {
    id: 'life.cancel-active-allowed',
    breaks: 'cancel is allowed on an active (matched) position',
    rule: 'STATE-cancel-unmatched',
    killers: ['lifecycle.match'],
    install: () => async (req, next) => {
      const res = await next(req);
      if (!(matches(req, 'position.cancel') && res.status >= 400 && errCode(await bodyJson(res)) !== 'position_not_found')) return res;
      const pos = (await bodyJson(await next(positionOf(req)))) as { status?: string };
      return pos?.status === 'active' ? withJson(res, { positionId: idOf(req), status: 'cancelled', released: '0' }, 200) : res;
    },
  },
  {
    id: 'life.cancel-twice-allowed',
    breaks: 'a cancelled position can be cancelled again',
    rule: 'STATE-cancel-unmatched',
    killers: ['lifecycle.cancel'],
    install: () => async (req, next) => {
      const res = await next(req);
      if (!(matches(req, 'position.cancel') && res.status >= 400 && errCode(await bodyJson(res)) !== 'position_not_found')) return res;
      const pos = (await bodyJson(await next(positionOf(req)))) as { status?: string };
      return pos?.status === 'cancelled' ? withJson(res, { positionId: idOf(req), status: 'cancelled', released: '0' }, 200) : res;
    },
  },
  {
    id: 'life.repay-on-lend-allowed',
    breaks: 'repay on a lend position succeeds',
    rule: 'EP-repay',
    killers: ['lifecycle.repay'],
    install: () => async (req, next) => {
      const res = await next(req);
      if (!(matches(req, 'position.repay') && res.status >= 400 && errCode(await bodyJson(res)) !== 'position_not_found')) return res;
      const pos = (await bodyJson(await next(positionOf(req)))) as { type?: string };
      return pos?.type === 'lend' ? withJson(res, { positionId: idOf(req), repaid: '1', outstanding: '0', status: 'active', collateralReleased: '0' }, 200) : res;
    },
  },
  {
    id: 'life.patch-not-persisted',
    breaks: 'PATCH answers with the new flags but stores nothing',
    rule: 'EP-patch',
    killers: ['lifecycle.patch'],
    install: () => async (req, next) => {
      if (!matches(req, 'position.patch')) return next(req);
      const flags = (await req.clone().json().catch(() => undefined)) as Record<string, unknown> | undefined;
      const cur = await next(new Request(req.url, { headers: req.headers }));
      if (cur.status !== 200 || !flags || typeof flags !== 'object') return next(req);
      return withJson(cur, { ...((await bodyJson(cur)) as object), ...flags }, 200);
    },
  },
  {
    id: 'life.withdraw-not-deducted',
    breaks: 'a withdrawal is acknowledged but the balance is not reduced',
    rule: 'EP-withdraw',
    killers: ['lifecycle.withdraw'],
    install: () => async (req, next) => {
      if (!matches(req, 'user.withdraw') || !req.headers.get('authorization')) return next(req);
      const b = (await req.clone().json().catch(() => undefined)) as { asset?: string; amount?: string; destination?: string } | undefined;
      if (!b || b.amount !== '40.25') return next(req);
      const userId = paramOf(req, 'userId');
      const now = new Date().toISOString();
      return withJson(new Response(null), { withdrawalId: 'wd_fake', userId, asset: b.asset, amount: b.amount, destination: b.destination, status: 'pending', createdAt: now }, 202);
    },
  },
  {
    id: 'life.matched-reads-pending',
    breaks: 'a matched position reads back as pending',
    rule: 'STATE-matched-active',
    killers: ['lifecycle.match'],
    waits: 'lifecycle.match polls up to 2 s for the position to read active',
    install: () => rewrite((req, res) => matches(req, 'position.get') && res.status === 200, (b) => (b.status === 'active' ? { ...b, status: 'pending' } : b)),
  },
  {
    id: 'life.never-matures',
    breaks: 'a position past its maturity still reads active',
    rule: 'STATE-status-values',
    killers: ['lifecycle.maturity'],
    waits: 'lifecycle.maturity polls up to 2 s for the position to read matured',
    install: () => rewrite((req, res) => matches(req, 'position.get') && res.status === 200, (b) => (b.status === 'matured' ? { ...b, status: 'active' } : b)),
  },
  {
    id: 'life.amount-rounded',
    breaks: 'a lend amount reads back rounded to whole units',
    rule: 'CONV-amount-decimal',
    killers: ['lifecycle.lend-read-list'],
    install: () => rewrite((req, res) => matches(req, 'position.get') && res.status === 200, (b) => ({ ...b, amount: String(Math.round(Number(b.amount))) })),
  },
  {
    id: 'life.easy-autoRollover-false',
    breaks: 'autoRollover defaults to false in easy mode',
    rule: 'FIELD-lend-autoRollover',
    killers: ['lifecycle.lend-read-list'],
    install: () => rewrite((req, res) => matches(req, 'lend.create') && res.status < 300, (b) => ({ ...b, autoRollover: false })),
  },
]);
