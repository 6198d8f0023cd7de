import { describe, expect, it } from 'vitest';
import { defaultProfile, endpoints, parseProfile, unknownField } from '../index.ts';
import { buildOpenApi } from './document.ts';

// The request side of the export says the profile's unknown-field policy, and the same
// contract walk (contract/unknown-fields.ts) names the field the sandbox refuses.

type Json = Record<string, any>;
const body = (doc: Json, path: string, method: string): Json => doc.paths[path][method].requestBody.content['application/json'].schema;

describe('request bodies under requests.unknownFields', () => {
  it('reject closes every object of every body, nested ones too; ignore leaves them open', () => {
    const closed = buildOpenApi(parseProfile({ requests: { unknownFields: 'reject' } }));
    expect(body(closed, '/borrow', 'post').additionalProperties).toBe(false);
    expect(body(closed, '/borrow', 'post').properties.collateral.additionalProperties).toBe(false);
    expect(body(closed, '/users/{userId}/withdraw', 'post').additionalProperties).toBe(false);
    const open = buildOpenApi(defaultProfile);
    expect(body(open, '/borrow', 'post').additionalProperties).toBeUndefined();
    expect(body(open, '/borrow', 'post').properties.collateral.additionalProperties).toBeUndefined();
    expect(body(open, '/lend', 'post').description).toMatch(/ignored/);
  });

  it('names the first unlisted field by its dotted path, and none in a body that lists all of its', () => {
    const borrow = endpoints(defaultProfile).find((e) => e.id === 'borrow.create')!.body!;
    expect(unknownField(borrow, { userId: 'u', collateral: { asset: 'ETH', amount: '1', grade: 'A' }, borrowAsset: 'USDC', borrowAmount: '1' })).toBe('collateral.grade');
    expect(unknownField(borrow, { userId: 'u', note: 'x' })).toBe('note');
    expect(unknownField(borrow, { userId: 'u', collateral: { asset: 'ETH', amount: '1' }, borrowAsset: 'USDC', borrowAmount: '1', autoRefinance: true })).toBeUndefined();
  });
});
