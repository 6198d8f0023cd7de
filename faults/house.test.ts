import { describe, expect, it } from 'vitest';
import { RECEIVER_FAULTS } from '../chaos/faults/index.ts';
import { MUTANT_REGISTRY } from '../conformance/testing/mutants/index.ts';
import { SANDBOX_FAULTS } from '../sandbox/faults/index.ts';
import type { HttpSeam } from './fault.ts';
import { faultRegistry } from './registry.ts';

// The house's faults in one registry: the sandbox's, the chaos receiver's and the mutants',
// each host's list by value. A name is taken once across the house, and every fault at an HTTP
// seam has the one shape: a direction, and an install that gives a (request, next) => response.

const HOUSE = faultRegistry(...SANDBOX_FAULTS.all, ...RECEIVER_FAULTS.all, ...MUTANT_REGISTRY.all);
const HTTP: readonly string[] = ['receiver', 'http-proxy', 'webhook-sender'] satisfies HttpSeam[];

describe('the house registry', () => {
  it('holds every fault once, by a name tsc knows', () => {
    expect(HOUSE.all.length).toBe(SANDBOX_FAULTS.all.length + RECEIVER_FAULTS.all.length + MUTANT_REGISTRY.all.length);
    expect(HOUSE.get('withdraw-race').seam).toBe('engine');
    expect(HOUSE.get('late-200').seam).toBe('receiver');
    expect(HOUSE.get('hook-sender-timeout').seam).toBe('webhook-sender');
    expect(HOUSE.get('auth.403-not-401').seam).toBe('http-proxy');
    // @ts-expect-error a misspelt fault is no name of the house: tsc refuses it.
    expect(HOUSE.find('withdraw-rase') ?? HOUSE.get('withdraw-rase')).toBeUndefined();
  });

  it('gives every HTTP fault the one toxic shape, with a direction', () => {
    const http = HOUSE.all.filter((f) => HTTP.includes(f.seam));
    expect(http.length).toBeGreaterThan(70);
    for (const f of http) {
      expect(['upstream', 'downstream'], f.name).toContain((f as { direction?: string }).direction);
      const env = f.seam === 'receiver' ? { deadlineMs: 5_000 } : { attempt: () => 1, sign: (r: Request) => r };
      expect(typeof (f.install as (c: unknown, e: unknown) => unknown)(f.config.safeParse({}).data ?? { status: 503 }, env), f.name).toBe('function');
    }
  });
});
