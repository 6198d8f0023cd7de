import { describe, expect, it } from 'vitest';
import type { Reply } from '../conformance/http.ts';
import { DEFAULT_MAX_REQUESTS, FULL_DETECTION_REQUESTS, remainingOf, widenedBudget } from './budget.ts';

// The default budget is raised only as far as the key's own room shows, never past a whole
// detection's cost, and never without the header.

const reply = (headers: Record<string, string>) => ({ headers }) as unknown as Reply;

describe('the detection budget when none is given', () => {
  it('reads X-RateLimit-Remaining as a count, or not at all', () => {
    expect(remainingOf(reply({ 'x-ratelimit-remaining': '497' }))).toBe(497);
    for (const v of ['', 'many', '-1', '2.5']) expect(remainingOf(reply({ 'x-ratelimit-remaining': v })), v).toBeUndefined();
    expect(remainingOf(reply({}))).toBeUndefined();
  });

  it('keeps the Starter default without the header or without room, and takes four fifths of the room up to a whole detection', () => {
    expect(widenedBudget(3, undefined)).toEqual({ max: DEFAULT_MAX_REQUESTS });
    expect(widenedBudget(3, 97)).toEqual({ max: DEFAULT_MAX_REQUESTS });
    expect(widenedBudget(3, 0)).toEqual({ max: DEFAULT_MAX_REQUESTS });
    expect(widenedBudget(3, 150).max).toBe(123);
    expect(widenedBudget(3, 497)).toEqual({ max: FULL_DETECTION_REQUESTS, note: `raised from 100 to ${FULL_DETECTION_REQUESTS}: the key's X-RateLimit-Remaining was 497 after 3 requests (--max-requests sets it)` });
  });
});
