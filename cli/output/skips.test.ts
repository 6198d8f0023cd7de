import { describe, expect, it } from 'vitest';
import { skipLines } from './skips.ts';

describe('skipLines', () => {
  it('groups skips by reason, with their kind when the results carry one', () => {
    const lines = skipLines({
      checks: [
        { id: 'a', status: 'skipped', message: 'no second key (--api-key-2)', skipKind: 'run-lacks' },
        { id: 'b', status: 'skipped', message: 'no second key (--api-key-2)', skipKind: 'run-lacks' },
        { id: 'c', status: 'skipped', message: 'no sandbox controls' },
        { id: 'd', status: 'passed' },
      ],
    });
    expect(lines).toEqual(['skipped checks (3), by reason:', '  - [run-lacks] no second key (--api-key-2) (a, b)', '  - no sandbox controls (c)']);
  });
  it("prints a part's own skip reason when it has no checks", () => {
    expect(skipLines({ skipReason: 'k6 not found', checks: [] })).toEqual(['skipped: k6 not found']);
  });
});
