import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { atSeam, faultNames, getFault, registerFault, validateFaults } from './fault.ts';
import { parseFaultFlag } from './flag.ts';

// The registry's rules: a name is taken once, a host sees only its seams' faults, settings are
// validated with one-line errors, and the --fault flag parses as documented.

const cfg = z.object({ ms: z.number().int().min(0).default(5) }).strict();
registerFault({ name: 'test-a', seam: 'engine', description: 'a', config: cfg, install: (c: { ms: number }) => c.ms });
registerFault({ name: 'test-b', seam: 'receiver', description: 'b', config: cfg, install: (c: { ms: number }) => -c.ms });

describe('fault registry', () => {
  it('takes a name once', () => {
    expect(() => registerFault({ name: 'test-a', seam: 'limiter', description: '', config: cfg, install: () => 0 })).toThrow(/already registered/);
  });

  it('shows each host only the faults of its seams', () => {
    expect(faultNames(['engine'])).toEqual(['test-a']);
    expect(getFault('test-b', ['engine'])).toBeUndefined();
    expect(getFault('test-b')?.seam).toBe('receiver');
  });

  it('validates settings against the seams, one line per error', () => {
    const v = validateFaults([{ name: 'test-a', config: { ms: 7 } }, { name: 'test-b' }], ['engine', 'receiver']);
    expect(v.map((i) => i.fault.install(i.config))).toEqual([7, -5]);
    expect(atSeam(v, 'receiver').map((i) => i.fault.name)).toEqual(['test-b']);
    expect(() => validateFaults([{ name: 'test-b' }], ['engine'])).toThrow(/^unknown fault "test-b"; faults are test-a$/);
    expect(() => validateFaults([{ name: 'test-a', config: { ms: -1 } }], ['engine'])).toThrow(/^fault test-a: bad config: ms: /);
    expect(() => validateFaults([{ name: 'test-a', config: { m: 1 } }], ['engine'])).toThrow(/^fault test-a: bad config: \(root\)/);
  });

  it('parses the --fault flag', () => {
    expect(parseFaultFlag('withdraw-race:gapMs=10;x=true,cursor-shift')).toEqual([{ name: 'withdraw-race', config: { gapMs: 10, x: true } }, { name: 'cursor-shift' }]);
    expect(() => parseFaultFlag('withdraw-race:gapMs')).toThrow(/not key=value/);
  });
});
