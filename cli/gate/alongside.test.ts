import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultProfile } from '../../contract/index.ts';
import type { PartResult } from '../../kernel/results.ts';
import { createRedactor } from '../../reports/redact.ts';
import { Progress } from './progress.ts';
import { runGate } from './run.ts';
import type { GateStep } from './steps.ts';
import type { GateTarget } from './target.ts';

const dir = mkdtempSync(join(tmpdir(), 'lendcheck-gate-alongside-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const target: GateTarget = { baseUrl: 'http://127.0.0.1:9/v1', label: 'fake target', embedded: true, apiKey: 'ck_test_x', tierKeys: {}, hasControls: true, close: async () => {} };
const part = (p: PartResult['part'], status: PartResult['status'] = 'passed'): PartResult => ({
  part: p, name: p, status, startedAt: new Date().toISOString(), durationMs: 1, figures: {},
  checks: [{ id: `${p}-1`, title: `${p} check`, requirements: [], status: status === 'failed' ? 'failed' : 'passed', durationMs: 1, notes: [] }],
});

describe('gate steps that share nothing with the others', () => {
  it('run alongside the other steps, and their results keep their place in the order and count in the verdict', async () => {
    const events: string[] = [];
    const step = (name: string, p: PartResult['part'], ms: number, alongside: boolean, status: PartResult['status'] = 'passed'): GateStep => ({
      name, part: p, title: name, needs: [],
      ...(alongside ? { alongside: () => true } : {}),
      run: async () => {
        events.push(`${name} start`);
        await sleep(ms);
        events.push(`${name} end`);
        return part(p, status);
      },
    });
    const steps = [step('a', 'conformance', 300, false), step('b', 'load', 300, false), step('slow', 'chaos', 500, true, 'failed'), step('d', 'certify', 10, false)];
    const out = new PassThrough();
    out.resume();
    const { summary } = await runGate({ target, profile: defaultProfile, reportDir: dir, steps, progress: new Progress(out, createRedactor([]), false), runId: 'alongside' });
    // The slow step starts first and is still running while a runs (in sequence it would start after b).
    expect(events.slice(0, 2)).toEqual(['slow start', 'a start']);
    expect(events.indexOf('slow end')).toBeGreaterThan(events.indexOf('a start'));
    expect(events.indexOf('d start')).toBeGreaterThan(events.indexOf('slow end'));
    expect(summary.parts.map((p) => p.part)).toEqual(['conformance', 'load', 'chaos', 'certify']);
    expect(summary.verdict).toBe('failed');
  });
});
