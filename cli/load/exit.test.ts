import { describe, expect, it } from 'vitest';
import { loadExitCode } from './exit.ts';

describe('loadExitCode', () => {
  it("maps k6's codes onto the one table and never returns 99", () => {
    expect(loadExitCode({ status: 'passed', figures: { k6ExitCode: 0 } })).toBe(0);
    expect(loadExitCode({ status: 'failed', figures: { k6ExitCode: 99 } })).toBe(1);
    expect(loadExitCode({ status: 'failed', figures: { k6ExitCode: 107 } })).toBe(1);
    expect(loadExitCode({ status: 'failed', figures: { k6ExitCode: 105 } })).toBe(3);
    expect(loadExitCode({ status: 'skipped', figures: {} })).toBe(3);
    for (let code = 0; code < 256; code++) expect([0, 1, 3]).toContain(loadExitCode({ status: 'failed', figures: { k6ExitCode: code } }));
  });
});
