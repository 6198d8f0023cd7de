import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iso } from './rows.ts';

describe('iso', () => {
  it('gives the same string as Date#toISOString over the whole four-digit-year range', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => iso(ms) === new Date(ms).toISOString()), { numRuns: 20_000 });
  });

  it('gives the same string at day, year and range edges, and falls back beyond them', () => {
    for (const ms of [0, 1, 999, 86_399_999, 86_400_000, Date.parse('2024-02-29T23:59:59.999Z'), Date.parse('2100-03-01T00:00:00.000Z'), 253_402_300_799_999, 253_402_300_800_000, -1, -86_400_001, 1.5]) {
      expect(iso(ms), String(ms)).toBe(new Date(ms).toISOString());
    }
  });
});
