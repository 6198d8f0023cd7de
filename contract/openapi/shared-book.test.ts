import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { defaultProfile, type Profile } from '../profile.ts';
import { buildOpenApi } from './document.ts';

// The authenticated and the public order book share one path item (orderbookPath 'shared-by-auth').
// Where their success statuses differ (a Starter detection that never saw the authenticated book
// succeed records its status as unknown, `2XX`), each status must hold every book it may carry:
// a 200 that promised the public body alone would refuse a correct authenticated answer (soak seeds 12, 13).

type Json = Record<string, any>;
const KEYED = 'GET /markets/{asset}/orderbook';
const PUBLIC = 'GET /markets/{id}/orderbook';
const under = (statuses: Record<string, number | null>): Profile => ({ ...defaultProfile, successStatus: { ...defaultProfile.successStatus, ...statuses } });
const book = (p: Profile) => (buildOpenApi(p) as Json).paths['/markets/{id}/orderbook'].get.responses as Json;
const schemaOf = (r: Json) => r.content?.['application/json']?.schema as Json | undefined;

describe('the shared order-book path', () => {
  it('one status for both: either book, each marked with who shows it', () => {
    const s = schemaOf(book(defaultProfile)['200'])!;
    expect(s.anyOf.map((b: Json) => b['x-lendcheck-shown-by'])).toEqual(['profile', 'spec']);
    expect(s.anyOf[1].required).toEqual(['lends', 'borrows']);
  });

  it('the authenticated status unknown: the public 200 may be either book, any other 2xx only the authenticated one', () => {
    const r = book(under({ [KEYED]: null }));
    expect(Object.keys(r).filter((k) => k.startsWith('2')).sort()).toEqual(['200', '2XX']);
    expect(schemaOf(r['200'])!.anyOf.map((b: Json) => b['x-lendcheck-shown-by'])).toEqual(['profile', 'spec']);
    expect(schemaOf(r['2XX'])!.anyOf).toBeUndefined();
    expect(schemaOf(r['2XX'])!.required).toBeUndefined();
  });

  it('two known statuses apart: each holds its own book; a 204 holds none', () => {
    const r = book(under({ [KEYED]: 203 }));
    expect(schemaOf(r['203'])!.required).toBeUndefined();
    expect(schemaOf(r['200'])!.required).toEqual(['lends', 'borrows']);
    const n = book(under({ [KEYED]: 204, [PUBLIC]: null }));
    expect(schemaOf(n['204'])).toBeUndefined();
    expect(schemaOf(n['2XX'])!.required).toEqual(['lends', 'borrows']);
  });

  it('stays valid OpenAPI 3.1 under each', async () => {
    for (const p of [under({ [KEYED]: null }), under({ [KEYED]: 204, [PUBLIC]: null }), under({ [KEYED]: 203 })]) {
      const res = await new Validator().validate(buildOpenApi(p) as never);
      expect(res.errors ?? []).toEqual([]);
    }
  });
});
