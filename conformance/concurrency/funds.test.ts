import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../contract/index.ts';
import { eventualReads } from './funds.ts';

describe('consistency', () => {
  it('a profile declaring eventual reads makes the storm and the walk skip, saying why', () => {
    expect(eventualReads(defaultProfile)).toBeUndefined();
    expect(eventualReads({ ...defaultProfile, consistency: { readAfterWrite: 'strict', convergenceMs: 2000 } })).toBeUndefined();
    expect(eventualReads({ ...defaultProfile, consistency: { readAfterWrite: 'eventual', convergenceMs: 2000 } })).toMatch(/eventually consistent .*within 2000 ms/);
  });
});
