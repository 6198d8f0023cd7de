import { bodyJson, errCode, matches, rewrite, withJson } from './kit.ts';
import { registerMutants } from './mutant.ts';

// Mutants of the error object and codes (spec part 7).

const isCode = (code: string) => async (res: Response) => errCode(await bodyJson(res)) === code;

export const ERROR_MUTANTS = registerMutants([
  {
    id: 'error.invalid-request-renamed',
    breaks: 'malformed requests get code bad_request instead of invalid_request',
    rule: 'ERR-invalid_request',
    killers: ['errors.invalid.lend'],
    install: () => rewrite((_q, res) => res.status === 400, (b) => (b.error?.code === 'invalid_request' ? { error: { ...b.error, code: 'bad_request' } } : b)),
  },
  {
    id: 'error.422-for-invalid',
    breaks: 'malformed requests get 422 instead of 400',
    rule: 'ERR-invalid_request',
    killers: ['errors.invalid.withdraw'],
    install: () => async (req, next) => {
      const res = await next(req);
      return res.status === 400 && (await isCode('invalid_request')(res)) ? withJson(res, await bodyJson(res), 422) : res;
    },
  },
  {
    id: 'error.no-message',
    breaks: 'error objects carry no message',
    rule: 'SHAPE-error',
    killers: ['errors.position-not-found'],
    install: () => rewrite((_q, res) => res.status >= 400, (b) => (b.error ? { error: { code: b.error.code } } : b)),
  },
  {
    id: 'error.not-found-400',
    breaks: 'an unknown position gets 400 instead of 404',
    rule: 'ERR-position_not_found',
    killers: ['errors.position-not-found'],
    install: () => rewrite((_q, res) => res.status === 404, (b) => b, 400),
  },
  {
    id: 'error.insufficient-no-details',
    breaks: 'insufficient_funds comes without details',
    rule: 'ERR-insufficient_funds-details',
    killers: ['errors.insufficient-funds'],
    install: () => rewrite((_q, res) => res.status === 400, (b) => (b.error?.code === 'insufficient_funds' ? { error: { code: b.error.code, message: b.error.message } } : b)),
  },
  {
    id: 'error.insufficient-details-numbers',
    breaks: 'insufficient_funds details are numbers, not decimal strings',
    rule: 'ERR-insufficient_funds-details',
    killers: ['errors.insufficient-funds'],
    install: () =>
      rewrite((_q, res) => res.status === 400, (b) =>
        b.error?.code === 'insufficient_funds' ? { error: { ...b.error, details: { required: Number(b.error.details.required), available: Number(b.error.details.available) } } } : b,
      ),
  },
  {
    id: 'error.insufficient-as-invalid',
    breaks: 'not enough balance is reported as invalid_request',
    rule: 'ERR-insufficient_funds',
    killers: ['errors.insufficient-funds'],
    install: () => rewrite((_q, res) => res.status === 400, (b) => (b.error?.code === 'insufficient_funds' ? { error: { ...b.error, code: 'invalid_request' } } : b)),
  },
  {
    id: 'error.500-on-bad-body',
    breaks: 'a lend with a malformed body gets 500 internal_error',
    rule: 'ERR-invalid_request',
    killers: ['errors.invalid.lend'],
    install: () => async (req, next) => {
      const res = await next(req);
      return matches(req, 'lend.create') && res.status === 400 && (await isCode('invalid_request')(res))
        ? withJson(res, { error: { code: 'internal_error', message: 'internal error' } }, 500)
        : res;
    },
  },
  {
    id: 'error.500-text-on-non-json',
    breaks: 'a body that is not JSON crashes the handler: a text/plain 500',
    rule: 'ERR-internal_error',
    killers: ['fuzz.not-json'],
    install: () => async (req, next) => {
      if (!(matches(req, 'lend.create') && (req.headers.get('content-type') ?? '').includes('json'))) return next(req);
      const text = await req.clone().text();
      try {
        JSON.parse(text);
      } catch {
        return new Response('Internal Server Error', { status: 500, headers: { 'content-type': 'text/plain' } });
      }
      return next(req);
    },
  },
  {
    id: 'error.5xx-on-random-body',
    breaks: 'a JSON array body on POST /borrow gets 502',
    rule: 'SHAPE-error',
    killers: ['fuzz.bodies'],
    install: () => async (req, next) => {
      if (!matches(req, 'borrow.create')) return next(req);
      const text = await req.clone().text();
      return text.trim().startsWith('[') ? withJson(new Response(null), { error: { code: 'internal_error', message: 'bad gateway' } }, 502) : next(req);
    },
  },
]);
