import { describe, expect, it } from 'vitest';
import { defaultProfile, endpoints, judgeSuccess, parseProfile, REQUIREMENTS, type Endpoint } from '../contract/index.ts';
import { idFieldOf } from '../contract/assertable.ts';
import type { Check } from './check.ts';
import { allChecks } from './registry.ts';
import { bindingViolations, boundBy, unboundFailureNote, type CitingCheck } from './requirement-binding.ts';

// Issue 47: a check fails a target only through a requirement that binds what it judges. Over
// the whole registry, and proven able to catch a planted breach.

/** Every endpoint served: the rates path known, the webhook list and delete offered. */
const full = parseProfile({ ratesPath: '/rates', webhooks: { listAndDelete: true } });
const table = endpoints(full);
const served = table.filter((e) => e.access !== 'sandbox');
const registry = (): Check[] => {
  const byId = new Map<string, Check>();
  for (const p of [defaultProfile, full]) for (const c of allChecks(p, { key: 'starter', key2: 'growth', burstKey: 'scale' })) byId.set(c.id, c);
  return [...byId.values()];
};

describe('every failing rule cites a sentence that binds what the check judges', () => {
  it('holds for every check of the registry', () => {
    expect(bindingViolations(registry(), table)).toEqual([]);
  });

  it('catches a planted rule that binds the wrong endpoint, a check that says not what it judges, and one that can only advise', () => {
    const planted: CitingCheck[] = [
      { id: 'planted.orderbook-on-borrow', requirements: ['SHAPE-orderbook'], scope: { endpoints: ['borrow.create'] } },
      { id: 'planted.no-scope', requirements: ['EP-json'] },
      { id: 'planted.advice-only', requirements: ['STATE-rate-may-differ'], scope: { endpoints: ['position.get'] } },
    ];
    const found = bindingViolations(planted, table);
    expect(found).toContain('planted.orderbook-on-borrow: cites SHAPE-orderbook, which binds public.orderbook, none of what the check judges (borrow.create)');
    expect(found).toContain('planted.orderbook-on-borrow: judges borrow.create, but none of the requirements it cites (SHAPE-orderbook) binds borrow.create');
    expect(found.some((v) => v.startsWith('planted.no-scope: says not what it judges'))).toBe(true);
    expect(found.some((v) => v.startsWith('planted.advice-only: cites no requirement that may fail a target'))).toBe(true);
    // The same planted check among the real ones: found there too.
    expect(bindingViolations([...registry(), planted[0]!], table)).toEqual(found.filter((v) => v.startsWith('planted.orderbook-on-borrow')));
  });

  it('catches a requirement bound to no endpoint of the table', () => {
    const q = { ...REQUIREMENTS.find((r) => r.id === 'EP-lend')!, binds: { request: ['lend.make'], enforce: 'fail' as const } };
    expect(bindingViolations([], table, [q])).toEqual(['requirement EP-lend binds lend.make, which is no endpoint of contract/endpoints.ts']);
  });
});

describe('at run time, a failure on an endpoint its sentences do not bind', () => {
  // The exchange names the endpoint its caller called (ctx.call); a delivery or an off-table probe names none.
  const x = (endpoint: string) => ({ endpoint });
  const walk = registry().find((c) => c.id === 'pagination.walk')!;

  it("says which endpoint broke and that the check's sentences do not bind it (a setup step's failure)", () => {
    expect(unboundFailureNote(walk, x('lend.create'), table)).toMatch(/^the failing answer is POST \/lend \(lend\.create\), which none of the requirements this check cites binds/);
  });

  it('says nothing where a cited sentence binds the endpoint, or the exchange is no endpoint\'s', () => {
    expect(unboundFailureNote(walk, x('positions.list'), table)).toBeUndefined();
    expect(unboundFailureNote(walk, {}, table)).toBeUndefined();
    expect(unboundFailureNote(walk, undefined, table)).toBeUndefined();
  });
});

describe("judgeSuccess, the one place for success bodies, fails only through a sentence that binds the endpoint and field", () => {
  const ts = '2026-01-01T00:00:00Z';
  const checks = new Map(registry().map((c) => [c.id, c]));
  const requirement = (id: string) => REQUIREMENTS.find((r) => r.id === id)!;
  /** Answers no correct service gives: each must fail, and only through a requirement binding the endpoint. */
  const broken = (e: Endpoint) => {
    const wrap = (b: unknown) => (e.access === 'public' ? { data: b, timestamp: ts } : b);
    return [
      { status: 500, json: { error: { code: 'internal_error', message: 'x' } }, contentType: 'application/json' },
      { status: 200, json: wrap({}), contentType: 'text/html' },
      { status: 200, json: undefined, contentType: 'application/json' },
      ...(e.access === 'public' ? [{ status: 200, json: { data: {}, timestamp: 'yesterday' }, contentType: 'application/json' }] : []),
      { status: 200, json: wrap({}), contentType: 'application/json' },
    ];
  };

  it('cites, for each failure, a requirement binding that endpoint (and the failing field), which the endpoint check and the run-wide check cite', () => {
    let judged = 0;
    for (const e of served) {
      for (const a of broken(e)) {
        const j = judgeSuccess(full, e, { ...a, text: JSON.stringify(a.json) ?? '<html>' });
        for (const f of j.failures) {
          judged++;
          if (f.profile) {
            // The profile's named id: sound to require (links and fixtures read it), and only there.
            expect(f.profile, e.id).toBe(`ids (${idFieldOf(full, e)})`);
            continue;
          }
          const q = requirement(f.requirement!);
          expect(boundBy(q, table).has(e.id), `${e.id}: ${f.requirement} binds ${e.id}`).toBe(true);
          expect(q.binds?.enforce, `${e.id}: ${f.requirement}`).toBe('fail');
          expect(checks.get(`endpoint.${e.id}`)!.requirements, `endpoint.${e.id} cites ${f.requirement}`).toContain(f.requirement);
          if (a.status === 200) expect(checks.get('endpoint.every-success-body')!.requirements, `every-success-body cites ${f.requirement}`).toContain(f.requirement);
          // A body the spec shows, broken at a field: the field is one its requirement names.
          const field = /^(\w+)[.:]/.exec(f.received)?.[1];
          if (q.id.startsWith('SHAPE-') && field) expect(q.binds?.fields, `${e.id}: ${q.id} names ${field}`).toContain(field);
        }
      }
    }
    expect(judged).toBeGreaterThan(served.length * 3);
  });
});
