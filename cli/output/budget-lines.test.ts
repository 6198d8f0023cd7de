import { describe, expect, it } from 'vitest';
import { budgetLines } from './budget-lines.ts';

describe('budgetLines: where the requests went', () => {
  const part = {
    checks: [
      { id: 'a.one', requests: 3 },
      { id: 'b.two', requests: 40 },
      { id: 'c.judge', requests: 0 },
    ],
    figures: { requests: 43, rateLimitWaitS: 2.5 },
  };

  it('names the requests sent, the costliest checks first, and the waiting', () => {
    expect(budgetLines(part, { name: 'full' })).toEqual(['requests: 43 sent by 2 checks (most: b.two 40, a.one 3); 2.5 s waiting for rate-limit room']);
  });

  it('a plan that leaves checks out says which families, and how to run them', () => {
    const lines = budgetLines(part, { name: 'quick', requestCap: 150 }, ['fuzz.bodies', 'fuzz.query', 'lifecycle.match']);
    expect(lines[1]).toBe('plan quick: 3 checks within 150 requests; left out 3: fuzz (2), lifecycle (1). Run without --plan for every check');
  });
});
