import { describe, expect, it } from 'vitest';
import { lendRequest } from './index.ts';
import { unknownField } from './unknown-fields.ts';

describe('unknownField', () => {
  const lend = { userId: 'u1', asset: 'USDC', amount: '10', rate: 0.05, maturity: '90d' };

  it('names the first field the schema does not list, nested by dotted path', () => {
    expect(unknownField(lendRequest, lend)).toBeUndefined();
    expect(unknownField(lendRequest, { ...lend, extra: 1 })).toBe('extra');
  });

  // Found by the neutrality soak (seed 23, fuzz.bodies): JSON.parse makes "__proto__" an own key,
  // and `in` found Object.prototype's: the walk recursed into it and the sandbox answered 500.
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('names %s as an unknown field, not a property of every object', (k) => {
    expect(unknownField(lendRequest, JSON.parse(`{"${k}": {"a": false}, "userId": "u1"}`))).toBe(k);
  });
});
