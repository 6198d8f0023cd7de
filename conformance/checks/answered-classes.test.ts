import { describe, expect, it } from 'vitest';
import { defaultProfile, endpointBody, withdrawRequest } from '../../contract/index.ts';
import type { Reply } from '../http.ts';
import { answeredClass, bodyClass, loggedAnswer, loggedQueryClass, pathClass, queryClass, queryMax, recordClass } from './answered-classes.ts';

const lend = endpointBody(defaultProfile, 'lend.create');
const valid = { userId: 'u', asset: 'USDC', amount: '100' };
const reply = (status: number) => ({ status, headers: {}, text: '', json: undefined, exchange: {} }) as unknown as Reply;

describe('malformed classes', () => {
  it('names a body by the first field the schema refuses and how: missing, null, another type, a value', () => {
    expect(bodyClass('lend.create', lend, valid)).toBeUndefined();
    expect(bodyClass('lend.create', lend, { asset: 'USDC', amount: '1' })).toBe('lend.create body userId missing');
    expect(bodyClass('lend.create', lend, { junk: { a: [1] }, '': 3 })).toBe('lend.create body userId missing');
    expect(bodyClass('lend.create', lend, { ...valid, userId: null })).toBe('lend.create body userId null');
    expect(bodyClass('lend.create', lend, { ...valid, userId: 5 })).toBe(bodyClass('lend.create', lend, { ...valid, userId: true }));
    expect(bodyClass('lend.create', lend, { ...valid, amount: '1e3' })).toBe('lend.create body amount value');
    expect(bodyClass('user.withdraw', withdrawRequest, { asset: 'USDC', amount: '1' })).toBe('user.withdraw body destination missing');
  });

  it('keeps a null body apart from the other bodies that are no object (an array, a scalar)', () => {
    expect(new Set([[], null, 'x', 3, true, [1]].map((b) => bodyClass('lend.create', lend, b)))).toEqual(new Set(['lend.create body no-object', 'lend.create body null']));
  });

  it('names a numeric query value by where it falls, any other by its characters', () => {
    const limit = (v: string) => queryClass('positions.list', 'limit', v, queryMax(defaultProfile, 'limit'));
    expect(['0', '-3', '7', '101', '99999999999999999999', '1.5', 'abc', '', ' 7'].map((v) => limit(v).split(' ').pop())).toEqual(['below-min', 'below-min', 'in-range', 'over-max', 'huge', 'fraction', 'plain', 'blank', 'padded']);
    expect(queryClass('positions.list', 'status', 'pending-unknown')).toBe(queryClass('positions.list', 'status', 'PENDING'));
    expect(queryClass('positions.list', 'status', '%&')).not.toBe(queryClass('positions.list', 'status', 'PENDING'));
    expect(queryMax(defaultProfile, 'status')).toBeUndefined();
    expect(pathClass('position.get', 'run-1-missing')).not.toBe(pathClass('position.get', 'a b'));
  });

  it('keeps the first answer of a class a run', () => {
    const ctx = { shared: new Map<string, unknown>() };
    recordClass(ctx, 'k', { reply: reply(400), value: 1, what: 'first' });
    recordClass(ctx, 'k', { reply: reply(500), value: 2, what: 'second' });
    recordClass(ctx, undefined, { reply: reply(400), value: 3, what: 'none' });
    expect(answeredClass(ctx, 'k')?.what).toBe('first');
    expect(answeredClass(ctx, 'other')).toBeUndefined();
    expect(answeredClass(ctx, undefined)).toBeUndefined();
  });

  it("finds an answer in the run's log by its exact query, or by the class of its one parameter", () => {
    const x = (url: string, status: number, body: string, endpoint = 'positions.list') => ({ method: 'GET', url, status, responseBody: body, responseHeaders: {}, endpoint });
    const http = {
      log: [
        x('http://h/v1/users/a/positions?limit=101', 400, '{"error":{"code":"invalid_request","message":"limit"}}'),
        x('http://h/v1/users/b/positions?cursor=%25%25%25', 400, '{"error":{"code":"invalid_request","message":"cursor"}}'),
        x('http://h/v1/users/b/positions?limit=100', 200, '{"positions":[…(90000 chars)'),
        x('http://h/v1/markets/USDC/orderbook?depth=0&maturity=30d', 400, '{}', 'orderbook.get'),
      ],
    } as unknown as Parameters<typeof loggedAnswer>[0]['http'];
    expect(loggedAnswer({ http }, 'positions.list', { limit: '101' })?.status).toBe(400);
    expect(loggedAnswer({ http }, 'positions.list', { limit: '102' })).toBeUndefined();
    expect(loggedAnswer({ http }, 'positions.list', { limit: '100' }), 'a clipped body is no answer to judge').toBeUndefined();
    expect(loggedAnswer({ http }, 'orderbook.get', { depth: '0' }), 'another parameter asked with it').toBeUndefined();
    const cls = queryClass('positions.list', 'cursor', '!!');
    expect(loggedQueryClass({ http }, 'positions.list', 'cursor', cls)).toMatchObject({ value: '%%%', reply: { status: 400 } });
    expect(loggedQueryClass({ http }, 'positions.list', 'cursor', queryClass('positions.list', 'cursor', 'abc'))).toBeUndefined();
  });
});
