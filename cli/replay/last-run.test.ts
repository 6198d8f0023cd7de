import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../kernel/results.ts';
import { failuresOf, readFailuresFile } from '../../reports/repro/failures-file.ts';
import { lastFailuresFile } from './last-run.ts';
import { replayExitCode, replayFailures } from './run.ts';

const dir = mkdtempSync(join(tmpdir(), 'lendcheck-lastrun-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const summary = (parts: RunSummary['parts']): RunSummary => ({ runId: '20261125T120000Z-abcd', verdict: 'failed', target: 't', profile: 'p', startedAt: new Date(0).toISOString(), durationMs: 1, parts });
const part = (p: RunSummary['parts'][number]['part'], status: 'failed' | 'passed'): RunSummary['parts'][number] => ({
  part: p, name: p, status, startedAt: new Date(0).toISOString(), durationMs: 1,
  figures: p === 'conformance' ? { seed: 42, strict: 'yes' } : {},
  checks: [{ id: `${p}.x`, title: 'x holds', requirements: ['AUTH-4'], status, durationMs: 1, notes: [], ...(status === 'failed' ? { message: 'expected a / received b' } : {}) }],
});

describe('failures.json and the last run', () => {
  it('lists only failed checks, with the seed and strictness the conformance part ran with, and reads back', () => {
    const f = failuresOf(summary([part('conformance', 'failed'), part('contract', 'passed'), part('load', 'failed')]), { baseUrl: 'http://t/v1' });
    expect(f.run).toEqual({ baseUrl: 'http://t/v1', seed: 42, strict: true, readOnly: false });
    expect(f.failures.map((x) => `${x.part}/${x.id}`)).toEqual(['conformance/conformance.x', 'load/load.x']);
    writeFileSync(join(dir, 'f.json'), JSON.stringify(f));
    expect(readFailuresFile(join(dir, 'f.json'))).toEqual(f);
    writeFileSync(join(dir, 'bad.json'), '{"kind":"other"}');
    expect(() => readFailuresFile(join(dir, 'bad.json'))).toThrow(/not a lendcheck failures file: kind/);
  });

  it('finds the newest gate run by its id, and says why when there is none', () => {
    const reports = join(dir, 'reports');
    expect(() => lastFailuresFile(reports)).toThrow(/no gate run in/);
    for (const id of ['20261124T230000Z-aaaa', '20261125T010000Z-bbbb', 'compare', 'history.db.d']) mkdirSync(join(reports, id), { recursive: true });
    expect(() => lastFailuresFile(reports)).toThrow(/\(20261125T010000Z-bbbb\) has no failures\.json/);
    writeFileSync(join(reports, '20261125T010000Z-bbbb', 'failures.json'), '{}');
    expect(lastFailuresFile(reports)).toBe(join(reports, '20261125T010000Z-bbbb', 'failures.json'));
  });

  it('a failure of a whole step is not replayed, and says which step to run; the exit code says so', async () => {
    const f = failuresOf(summary([part('load', 'failed'), part('chaos', 'failed')]));
    const out = await replayFailures(f);
    // The command is named as it runs where the reader is (kernel/self-command.ts: `node cli/bin.js` in a checkout).
    expect(out.map((o) => [o.verdict, o.message])).toEqual([
      ['not replayed', expect.stringMatching(/^a load failure comes from the whole step: run `(lendcheck|node \S*cli\/bin\.js) gate --only load`$/)],
      ['not replayed', expect.stringMatching(/^a chaos failure comes from the whole step: run `(lendcheck|node \S*cli\/bin\.js) gate --only chaos`$/)],
    ]);
    expect(replayExitCode(out)).toBe(3);
    expect(replayExitCode([])).toBe(0);
    expect(replayExitCode([{ ...out[0], verdict: 'fixed' }, { ...out[0], verdict: 'still failing' }])).toBe(1);
  });
});
