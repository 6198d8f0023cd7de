import { Session } from 'node:inspector/promises';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { breakdown, owner, type CpuProfile } from './cpuprofile.ts';

const here = pathToFileURL(new URL('./x.ts', import.meta.url).pathname).href;

describe('cpu profile breakdown', () => {
  it('names the owner of a frame', () => {
    expect(owner('file:///x/node_modules/zod/v4/core/schemas.js', 'parse')).toBe('zod');
    expect(owner('file:///x/node_modules/@hono/node-server/dist/index.mjs', 'f')).toBe('@hono/node-server');
    expect(owner('node:internal/http', 'f')).toBe('node internals');
    expect(owner('', '(garbage collector)')).toBe('(garbage collector)');
    expect(owner('', 'run')).toBe('V8 builtins and native bindings');
    expect(owner(here, 'f')).toBe('bench/lib');
  });

  it('charges each sample to its node and leaves idle time out of the shares', () => {
    const p: CpuProfile = {
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 3, 4] },
        { id: 2, callFrame: { functionName: 'parse', url: 'file:///x/node_modules/zod/index.js', lineNumber: 9 } },
        { id: 3, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
        { id: 4, callFrame: { functionName: 'lend', url: here, lineNumber: 0 } },
      ],
      samples: [2, 2, 3, 4, 2],
      timeDeltas: [100, 100, 5000, 200, 100],
      startTime: 0,
      endTime: 5500,
    };
    const b = breakdown(p);
    expect(b.idleMs).toBe(5);
    expect(b.busyMs).toBeCloseTo(0.5, 9);
    expect(b.groups.map((g) => [g.name, g.share])).toEqual([['zod', 0.6], ['bench/lib', 0.4]]);
    expect(b.functions.map((f) => f.name)).toEqual(['parse (zod:10)', 'lend (bench/lib/x.ts)']);
  });

  it('reads a real profile taken with the inspector', async () => {
    const s = new Session();
    s.connect();
    await s.post('Profiler.enable');
    await s.post('Profiler.start');
    let x = 0;
    const until = performance.now() + 50;
    while (performance.now() < until) x += Math.sqrt(x + 1);
    const { profile } = await s.post('Profiler.stop');
    s.disconnect();
    const b = breakdown(profile as CpuProfile);
    expect(x).toBeGreaterThan(0);
    expect(b.busyMs).toBeGreaterThan(20);
    expect(b.groups.reduce((a, g) => a + g.share, 0)).toBeCloseTo(1, 6);
  });
});
