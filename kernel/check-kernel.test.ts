import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CheckFailure, CheckRegistry, CheckSkip, failed, failure, KernelError, pass, runCheck, show, skip, text, type Check, type Outcome } from './check-kernel.ts';
import { skipReasonFor } from './needs.ts';

interface Ctx {
  note(t: string): void;
}
const ctx: Ctx = { note: () => {} };
const check = (run: (c: Ctx) => Promise<Outcome>, id = 'k.test'): Check<Ctx> => ({ id, title: 'a rule holds', requirements: ['R-1'], run });
// A bare `undefined` (outside a quoted JSON string): the mark of a missing value written into a message.
const bareUndefined = (s: string) => /\bundefined\b/.test(s.replace(/"(?:[^"\\]|\\.)*(?:"|$)/g, '""'));

describe('the check kernel', () => {
  it('turns pass, fail and skip outcomes into results', async () => {
    expect(await runCheck(check(async () => pass({ notes: ['seen'] })), ctx)).toMatchObject({ id: 'k.test', status: 'passed', notes: ['seen'] });
    expect(await runCheck(check(async () => skip('no funds')), ctx)).toMatchObject({ status: 'skipped', message: 'no funds' });
    const f = await runCheck(check(async () => failed(failure('the status', '200', '500'), failure('the body', 'JSON', '"<html>"'))), ctx);
    expect(f).toMatchObject({ status: 'failed', message: 'the status: expected 200 / received 500\nthe body: expected JSON / received "<html>"' });
  });

  it('catches the typed failure and skip a helper throws', async () => {
    const f = await runCheck(check(async () => { throw new CheckFailure('GET /x', 'status 200', 'status 404'); }), ctx);
    expect(f).toMatchObject({ status: 'failed', message: 'GET /x: expected status 200 / received status 404' });
    const s = await runCheck(check(async () => { throw new CheckSkip('the lend matched first'); }), ctx);
    expect(s).toMatchObject({ status: 'skipped', message: 'the lend matched first' });
  });

  it('skips with the unmet need, without running the check', async () => {
    let ran = false;
    const reason = skipReasonFor(['write', 'sandbox-controls'], { readOnly: false, sandboxControls: false });
    const r = await runCheck(check(async () => ((ran = true), pass())), ctx, { skip: reason });
    expect(ran).toBe(false);
    expect(r).toMatchObject({ status: 'skipped', message: expect.stringMatching(/no sandbox controls/) });
  });

  // The lifecycle.patch bug: `return ctx.note(...)` was taken for a failure reading
  // "undefined: expected undefined / received undefined". Now it is a kernel error.
  it.each<[string, unknown]>([
    ['a note (undefined)', undefined],
    ['null', null],
    ['a string', 'failed'],
    ['a look-alike plain object', { kind: 'fail', failures: [{ title: 'x', expected: 'y', received: 'z' }], notes: [] }],
    ['an old-style failure', { title: 'x', expected: 'y', received: 'z' }],
  ])('a check returning %s is a kernel error, never a target failure', async (_, value) => {
    const garbage = check(async (c) => (c.note('autoRefinance not exercised'), value) as unknown as Outcome, 'lifecycle.patch');
    await expect(runCheck(garbage, ctx)).rejects.toThrow(KernelError);
    await expect(runCheck(garbage, ctx)).rejects.toThrow(/lifecycle\.patch returned .* instead of an outcome/);
  });

  it('refuses failure parts that are empty, not strings, or hold a missing value', () => {
    for (const bad of [undefined, null, '', '   ', 42, 'status undefined', `expected ${String(undefined)}`]) {
      expect(() => failure('t', bad as string, 'r')).toThrow(KernelError);
      expect(() => failure('t', 'e', bad as string)).toThrow(KernelError);
      expect(() => failure(bad as string, 'e', 'r')).toThrow(KernelError);
    }
    expect(() => skip('')).toThrow(KernelError);
    // The target's own text may say "undefined": it is quoted, so it is not a missing value.
    expect(failure('the body', 'JSON', show('undefined is not a function')).received).toBe('"undefined is not a function"');
  });

  it('property: whatever values a check renders with show(), no failure message holds a bare undefined', async () => {
    await fc.assert(
      fc.asyncProperty(fc.anything(), fc.anything(), fc.string({ minLength: 1 }), async (got, want, title) => {
        const r = await runCheck(check(async () => { throw new CheckFailure(`${JSON.stringify(title)} holds`, `value ${show(want)}`, `value ${show(got)}`); }), ctx);
        expect(r.status).toBe('failed');
        expect(bareUndefined(r.message!)).toBe(false);
        expect(r.message).toMatch(/: expected .+ \/ received .+/);
      }),
      { numRuns: 300 },
    );
  });

  it('property: a failure message never reads "undefined" unless the values it shows said so', async () => {
    const noWord = fc.anything().filter((v) => !/undefined/.test(JSON.stringify(v) ?? ''));
    await fc.assert(
      fc.asyncProperty(noWord, noWord, async (got, want) => {
        const r = await runCheck(check(async () => failed(failure('the field', show(want), show(got)))), ctx);
        expect(r.message).not.toMatch(/undefined/);
      }),
      { numRuns: 300 },
    );
  });

  it('property: building a failure from possibly missing values either refuses (kernel error) or gives a message without a bare undefined', () => {
    const part = fc.option(fc.string(), { nil: undefined });
    fc.assert(
      fc.property(part, part, part, (t, e, r) => {
        let msg: string;
        try {
          msg = new CheckFailure(`${t}`, `${e}`, `${r}`).message;
        } catch (err) {
          expect(err).toBeInstanceOf(KernelError);
          return;
        }
        expect(bareUndefined(msg)).toBe(false);
      }),
    );
  });

  it('an error a check did not mean to throw fails the check with the error quoted, or is classified', async () => {
    const r = await runCheck(check(async () => { throw new TypeError("Cannot read properties of undefined (reading 'id')"); }), ctx);
    expect(r.status).toBe('failed');
    expect(bareUndefined(r.message!)).toBe(false);
    const c = await runCheck(check(async () => { throw new Error('ECONNREFUSED'); }), ctx, { classify: () => failed(failure('transport', 'an HTTP answer', 'ECONNREFUSED')) });
    expect(c.message).toBe('transport: expected an HTTP answer / received ECONNREFUSED');
  });

  it('a registry is keyed by check id: duplicates refused, selection by id or prefix*', () => {
    const reg = new CheckRegistry<Check<Ctx>>([check(async () => pass(), 'a.one'), check(async () => pass(), 'a.two'), check(async () => pass(), 'b.one')]);
    expect(() => reg.add(check(async () => pass(), 'a.one'))).toThrow(/duplicate check id a\.one/);
    expect(reg.select(['a.*']).map((c) => c.id)).toEqual(['a.one', 'a.two']);
    expect(reg.select(['b.one', 'a.two']).map((c) => c.id)).toEqual(['a.two', 'b.one']);
    expect(reg.unknown(['a.one', 'zzz'])).toEqual(['zzz']);
    expect(text('ok')).toBe('ok');
  });
});
