import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { atSeam, defineFault, type Fault } from './fault.ts';
import { parseFaultFlag } from './flag.ts';
import { chain, withToxicity, type HttpFault, type Toxic } from './http.ts';
import { faultRegistry } from './registry.ts';

// The registry's rules: a name is listed once and is a type (a misspelt one does not compile),
// settings are validated with one-line errors, toxicity is a seeded share, toxics chain in
// order, and the --fault flag parses as documented.

const cfg = z.object({ ms: z.number().int().min(0).default(5) }).strict();
const a = defineFault({ name: 'test-a', seam: 'engine', description: 'a', config: cfg, install: (c: { ms: number }) => c.ms });
const b = defineFault({ name: 'test-b', seam: 'http-proxy', description: 'b', config: cfg, install: (c: { ms: number }) => -c.ms });
const registry = faultRegistry(a, b);

describe('fault registry', () => {
  it('knows its names as a type: a misspelt name is a compile error, not an exception at import', () => {
    expect(registry.get('test-a').install({ ms: 3 })).toBe(3);
    expect(registry.names).toEqual(['test-a', 'test-b']);
    // @ts-expect-error 'test-c' is no fault of this registry: tsc refuses it.
    expect(registry.get('test-c')).toBeUndefined();
    // @ts-expect-error a misspelt name in a setting built in code is refused the same way.
    registry.setting('tset-a');
    expect(registry.setting('test-b', { ms: 2 }, { toxicity: 0.5 })).toEqual({ name: 'test-b', config: { ms: 2 }, toxicity: 0.5 });
  });

  it('takes a name once', () => {
    expect(() => faultRegistry(a, { ...a })).toThrow(/"test-a" is listed twice/);
  });

  it('validates settings from text, one line per error', () => {
    const v = registry.validate([{ name: 'test-a', config: { ms: 7 } }, { name: 'test-b', toxicity: 0.25, seed: 9 }]);
    expect(v.map((i) => (i.fault as Fault<typeof cfg, [], number>).install(i.config as { ms: number }))).toEqual([7, -5]);
    expect(v.map((i) => [i.toxicity, i.seed])).toEqual([[1, 1], [0.25, 9]]);
    expect(atSeam(v, 'http-proxy').map((i) => i.fault.name)).toEqual(['test-b']);
    expect(() => registry.validate([{ name: 'test-a', toxicity: 0.5 }])).toThrow(/toxicity applies to the HTTP seams only, not to engine/);
    expect(registry.find('nope')).toBeUndefined();
    expect(() => registry.validate([{ name: 'nope' }])).toThrow(/^unknown fault "nope"; faults are test-a, test-b$/);
    expect(() => registry.validate([{ name: 'test-a', config: { ms: -1 } }])).toThrow(/^fault test-a: bad config: ms: /);
    expect(() => registry.validate([{ name: 'test-a', config: { m: 1 } }])).toThrow(/^fault test-a: bad config: \(root\)/);
    expect(() => registry.validate([{ name: 'test-b', toxicity: 2 }])).toThrow(/test-b: toxicity 2 is not a share in 0\.\.1/);
  });

  it('parses the --fault flag, toxicity and seed as the setting\'s own', () => {
    expect(parseFaultFlag('withdraw-race:gapMs=10;x=true,cursor-shift')).toEqual([{ name: 'withdraw-race', config: { gapMs: 10, x: true } }, { name: 'cursor-shift' }]);
    expect(parseFaultFlag('hook-sender-timeout:timeoutMs=800;toxicity=0.5;seed=3')).toEqual([{ name: 'hook-sender-timeout', config: { timeoutMs: 800 }, toxicity: 0.5, seed: 3 }]);
    expect(() => parseFaultFlag('withdraw-race:gapMs')).toThrow(/not key=value/);
  });
});

describe('the HTTP seams\' one shape', () => {
  const ok: (r: Request) => Promise<Response> = async () => new Response('ok', { status: 200 });
  const teapot: Toxic = async () => new Response('no', { status: 418 });
  const req = () => new Request('http://x/');

  it('a toxic is (request, next) => response, with a direction; toxics chain outside in', async () => {
    const f: HttpFault<z.ZodObject, void, 'teapot'> = { name: 'teapot', seam: 'http-proxy', direction: 'downstream', description: 't', config: z.object({}), install: () => teapot };
    expect((await f.install({})(req(), ok)).status).toBe(418);
    const seen: string[] = [];
    const tag = (t: string): Toxic => async (r, next) => (seen.push(t), next(r));
    await chain([tag('outer'), tag('inner')])(req(), ok);
    expect(seen).toEqual(['outer', 'inner']);
  });

  it('toxicity touches a seeded share of the requests, the same share on every run', async () => {
    const run = async (seed: number) => {
      const t = withToxicity(teapot, 0.3, seed);
      const out: number[] = [];
      for (let i = 0; i < 1000; i++) out.push((await t(req(), ok)).status);
      return out;
    };
    const first = await run(7);
    const touched = first.filter((s) => s === 418).length;
    expect(touched).toBeGreaterThan(240);
    expect(touched).toBeLessThan(360);
    expect(await run(7)).toEqual(first);
    expect(await run(8)).not.toEqual(first);
    expect((await withToxicity(teapot, 0)(req(), ok)).status).toBe(200);
    expect(withToxicity(teapot, 1)).toBe(teapot);
  });
});
