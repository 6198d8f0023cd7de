import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../app.ts';
import { caller, KEY_A, testSandbox } from '../testing/helpers.ts';
import { json } from '../answer/answer.ts';
import type { SandboxPlugin } from './plugin.ts';

// The one pipeline's own rules, each in one place (dispatch.ts, table.ts): 404 and 405 from
// the one route table, HEAD as GET without a body, the declared body cap after the stages and
// before auth, stages under /v1 only, and plugin routes declared by endpoint id or by path.

const open: Sandbox[] = [];
afterEach(async () => {
  for (const sb of open.splice(0)) await sb.close();
});

function withProbe(extra: Partial<SandboxPlugin> = {}, controls = true) {
  const seen: string[] = [];
  const probe: SandboxPlugin = {
    name: 'probe',
    stage: () => (req, next) => {
      seen.push(`${req.method} ${req.path} ${req.endpoint ?? '-'}`);
      return next();
    },
    routes: () => [
      { method: 'GET', path: '/outside', handle: () => json({ outside: true }) },
      { method: 'GET', path: '/v1/things/{thingId}', handle: ({ params }) => json({ thingId: params.thingId }) },
      { method: 'GET', path: '/v1/sandbox/probe', handle: () => json({ control: true }) },
    ],
    ...extra,
  };
  const sb = testSandbox({ plugins: [probe], controls });
  open.push(sb);
  return { sb, seen, call: caller(sb) };
}

describe('the pipeline', () => {
  it('answers 405 with Allow for a path the table holds under other methods, 404 for a path it does not hold', async () => {
    const { call } = withProbe();
    const r = await call('DELETE', '/things/t1');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET');
    expect((await call('PUT', '/lend')).headers.get('allow')).toBe('POST');
    // A trailing slash is another path (it once answered "GET is not allowed …; allowed: GET").
    expect((await call('GET', '/rates/')).status).toBe(404);
    expect((await call('GET', '/nothing')).body.error.message).toBe('path: no route GET /v1/nothing');
  });

  it('answers HEAD as GET without the body, on the core\'s routes and plugin routes alike', async () => {
    const { sb } = withProbe();
    for (const path of ['/v1/rates', '/v1/things/t1', '/outside']) {
      const get = await sb.fetch(new Request(`http://sandbox.test${path}`, { headers: { authorization: `Bearer ${KEY_A}` } }));
      const head = await sb.fetch(new Request(`http://sandbox.test${path}`, { method: 'HEAD', headers: { authorization: `Bearer ${KEY_A}` } }));
      expect(head.status, path).toBe(get.status);
      expect(head.headers.get('content-type'), path).toBe(get.headers.get('content-type'));
      expect(await head.text(), path).toBe('');
    }
  });

  it('runs the stages under /v1 only, with the endpoint the router named', async () => {
    const { call, seen } = withProbe();
    await call('GET', '/rates');
    await call('GET', '/things/t%201');
    await call('GET', '/nothing');
    const outside = await (await open[0]!.fetch(new Request('http://sandbox.test/outside'))).json();
    expect(outside).toEqual({ outside: true });
    expect(seen).toEqual(['GET /v1/rates rates.get', 'GET /v1/things/t 1 -', 'GET /v1/nothing -']);
    expect((await call('GET', '/things/t%201')).body).toEqual({ thingId: 't 1' });
  });

  it('tells /v1 by the decoded path whether or not the raw target spells the prefix plainly', async () => {
    const { sb, seen } = withProbe();
    const get = (target: string) => sb.fetch(new Request(`http://sandbox.test${target}`));
    await get('/v1?x=1');
    await get('/%761/rates');
    await get('/v1x/rates');
    await get('/v1%2Frates');
    expect(seen).toEqual(['GET /v1 -', 'GET /v1/rates rates.get']);
  });

  it('refuses a declared body over the cap after the stages and before auth, on any /v1 path', async () => {
    const { call, seen } = withProbe();
    const big = { raw: 'x'.repeat(70_000), headers: { 'content-type': 'application/json', 'content-length': '70000' } };
    expect((await call('POST', '/lend', { ...big, key: null })).status).toBe(413);
    expect((await call('POST', '/nothing', big)).status).toBe(413);
    expect(seen).toEqual(['POST /v1/lend lend.create', 'POST /v1/nothing -']);
  });

  it('leaves out every /v1/sandbox route, the core\'s and the plugins\', without controls', async () => {
    const { call } = withProbe({}, false);
    expect((await call('GET', '/sandbox/probe')).status).toBe(404);
    expect((await call('GET', '/sandbox/clock')).status).toBe(404);
    const on = withProbe();
    expect((await on.call('GET', '/sandbox/probe')).body).toEqual({ control: true });
  });

  it('authenticates a plugin route declared by endpoint id as the contract says, and hands it the partner', async () => {
    const { call } = withProbe({ endpoints: ['sandbox.clock'], routes: () => [{ endpoint: 'sandbox.clock', handle: ({ partner }) => json({ partner: partner?.partnerId }) }] });
    expect((await call('GET', '/sandbox/clock', { key: null })).status).toBe(401);
    expect((await call('GET', '/sandbox/clock')).body).toEqual({ partner: 'partner_a' });
  });
});
