import { describe, expect, it } from 'vitest';
import type { ConformanceResult } from '../runner.ts';
import { leaveResult, resultOf } from './channel.ts';

describe('the suite channel', () => {
  it('brings the result back on the file meta as plain data, as the report files hold it', () => {
    const meta: object = {};
    const result = { status: 'passed', figures: { passed: 1 }, when: new Date(0), gone: undefined } as unknown as ConformanceResult;
    leaveResult(meta, result);
    // What Vitest sends the main process is a structured clone of the meta.
    const back = resultOf([{ meta: () => ({}) }, { meta: () => structuredClone(meta) }]);
    expect(back).toEqual({ status: 'passed', figures: { passed: 1 }, when: '1970-01-01T00:00:00.000Z' });
  });

  it('says nothing came back when the suite left no result', () => {
    expect(resultOf([{ meta: () => ({}) }])).toBeUndefined();
  });
});
