import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultProfile, parseProfile } from '../contract/index.ts';
import { serveWrapped, type EmbeddedTarget } from './embedded.ts';
import { writeReports } from './report.ts';
import { executeCheck, finishRun, prepareRun, runChecks } from './runner.ts';

// The runner against the real sandbox over loopback, on a few checks: read-only safety,
// --only, skips with reasons, and the two report files.

let t: EmbeddedTarget;
let dir: string;
/** Every method the server received, recorded on the server side. */
const seen: string[] = [];
beforeAll(async () => {
  t = await serveWrapped((req, next) => (seen.push(req.method), next(req)), { profile: defaultProfile, validateResponses: false });
  dir = mkdtempSync(join(tmpdir(), 'lendcheck-conf-'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('runChecks', () => {
  it('in read-only mode sends nothing but GET, and skips writes with a reason', async () => {
    seen.length = 0;
    const r = await runChecks({ baseUrl: t.url, apiKey: t.apiKey, apiKey2: t.apiKey2, profile: defaultProfile, readOnly: true, only: ['endpoint.*', 'auth.*', 'lifecycle.cancel', 'limits.public-429'] });
    expect(seen.length).toBeGreaterThan(5);
    expect(new Set(seen)).toEqual(new Set(['GET']));
    const skipped = r.checks.filter((c) => c.status === 'skipped');
    expect(skipped.map((c) => c.id)).toEqual(expect.arrayContaining(['endpoint.lend.create', 'lifecycle.cancel', 'limits.public-429', 'auth.isolation']));
    for (const c of skipped) expect(c.message, c.id).toMatch(/read-only|no second partner|no dedicated/);
    expect(r.checks.find((c) => c.id === 'endpoint.public.markets')?.status).toBe('passed');
    expect(r.checks.find((c) => c.id === 'auth.bad-credentials')?.status).toBe('passed');
    expect(r.status).toBe('passed');
  });

  it('writes conformance.json, junit.xml and failures.json with coverage and profile choices, and no key in them', async () => {
    const r = await runChecks({ baseUrl: t.url, apiKey: t.apiKey, profile: defaultProfile, only: ['endpoint.lend.create', 'errors.position-not-found', 'auth.isolation'] });
    expect(r.checks.find((c) => c.id === 'auth.isolation')).toMatchObject({ status: 'skipped', message: expect.stringMatching(/second partner key/) });
    const files = writeReports(r, dir, [t.apiKey]);
    expect(files.map((f) => f.split('/').pop())).toEqual(['conformance.json', 'junit.xml', 'failures.json']);
    for (const f of files) expect(existsSync(f)).toBe(true);
    const json = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
    expect(json.checks[0]).toMatchObject({ id: expect.any(String), title: expect.any(String), requirements: expect.any(Array), status: expect.any(String), durationMs: expect.any(Number) });
    const row = json.coverage.find((c: { requirement: string }) => c.requirement === 'ERR-position_not_found');
    expect(row.checks).toEqual(expect.arrayContaining([{ id: 'errors.position-not-found', status: 'passed' }]));
    expect(json.coverage.find((c: { requirement: string }) => c.requirement === 'PAGE-cursor').result).toBe('uncovered');
    expect(json.profileSummary.find((p: { option: string }) => p.option === 'successStatus["POST /lend"]')).toMatchObject({ followed: true });
    const all = files.map((f) => readFileSync(f, 'utf8')).join('\n');
    expect(all).not.toContain(t.apiKey);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('errors.position-not-found');
    // Nothing failed: the failures file says so, with the seed a replay would use.
    const failures = JSON.parse(readFileSync(join(dir, 'failures.json'), 'utf8'));
    expect(failures).toMatchObject({ kind: 'lendcheck-failures', failures: [], run: { seed: expect.any(Number) } });
  });

  it('follows the profile where the spec is silent: a deviation is a note, and a failure under --strict', async () => {
    // The sandbox rejects limit=101 with 400 and refuses a second cancel with 400 invalid_request;
    // this profile says clamp and 409 invalid_state instead. Both are within the spec.
    const other = parseProfile({ pagination: { overMax: 'clamp' }, errors: { invalidState: { code: 'invalid_state', status: 409 } } });
    const only = ['pagination.max-limit', 'lifecycle.cancel'];
    const lax = await runChecks({ baseUrl: t.url, apiKey: t.apiKey, profile: other, only });
    expect(lax.checks.map((c) => [c.id, c.status])).toEqual([['lifecycle.cancel', 'passed'], ['pagination.max-limit', 'passed']]);
    const notes = lax.checks.flatMap((c) => c.notes).join('\n');
    expect(notes).toMatch(/profile pagination.overMax: expected clamp \/ received reject/);
    expect(notes).toMatch(/profile errors.invalidState: expected 409 invalid_state \/ received 400 invalid_request/);
    expect(lax.profileChoices.filter((c) => !c.followed).map((c) => c.option).sort()).toEqual(['errors.invalidState', 'pagination.overMax']);
    const strict = await runChecks({ baseUrl: t.url, apiKey: t.apiKey, profile: other, only, strict: true });
    expect(strict.checks.map((c) => c.status)).toEqual(['failed', 'failed']);
    expect(strict.checks[0].message).toMatch(/--strict/);
  });
});

describe('a check that never comes to an outcome', () => {
  it('is failed on record at the deadline, so the run cannot say PASSED over it', async () => {
    const hang = { id: 'test.hangs', title: 'a check that waits forever', requirements: [], needs: [], run: () => new Promise<never>(() => {}) };
    const run = await prepareRun({ baseUrl: t.url, apiKey: t.apiKey, profile: defaultProfile, checks: [hang as never] });
    try {
      const r = await executeCheck(run, run.plan[0]!, 50);
      expect(r.status).toBe('failed');
      expect(r.message).toMatch(/an outcome within 0.05 s \/ received none after 0.05 s/);
      expect(finishRun(run).status).toBe('failed');
    } finally {
      await run.close();
    }
  });
});
