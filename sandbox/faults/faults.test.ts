import { afterEach, describe, expect, it } from 'vitest';
import { caller, testSandbox } from '../testing/helpers.ts';
import type { Sandbox } from '../app.ts';
import { FAULTS, installFaults, parseFaultFlag, validateFaults } from './index.ts';
import { RESOLVERS } from '../endpoints/resolvers.ts';

// The registry's own rules, and one race shown at the sandbox's door: the suites' proof
// (conformance/concurrency/testing/proof.test.ts) shows every fault caught by a named check.

const DEST = '0x' + '1'.repeat(40);
let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

describe('fault registry', () => {
  it('knows each fault by name, and every fault has a valid default config', () => {
    expect(FAULTS.size).toBeGreaterThanOrEqual(11);
    for (const [name, m] of FAULTS) {
      expect(m.name).toBe(name);
      expect(m.config.safeParse({}).success).toBe(true);
    }
  });

  it('refuses an unknown name and a bad config, naming them', () => {
    expect(() => validateFaults([{ name: 'nope' }])).toThrow(/unknown fault "nope"; faults are .*withdraw-race/);
    expect(() => validateFaults([{ name: 'withdraw-race', config: { gapMs: -1 } }])).toThrow(/withdraw-race: bad config: gapMs/);
    expect(() => validateFaults([{ name: 'withdraw-race', config: { gap: 1 } }])).toThrow(/withdraw-race: bad config/);
  });

  it('parses the --fault flag', () => {
    expect(parseFaultFlag('withdraw-race:gapMs=10,cursor-shift')).toEqual([{ name: 'withdraw-race', config: { gapMs: 10 } }, { name: 'cursor-shift' }]);
    expect(() => parseFaultFlag('withdraw-race:gapMs')).toThrow(/not key=value/);
  });

  it('replaces only the resolvers a fault names; none without faults', () => {
    expect(installFaults([], RESOLVERS)).toEqual(RESOLVERS);
    const r = installFaults([{ name: 'withdraw-race' }], RESOLVERS);
    expect(r['user.withdraw']).not.toBe(RESOLVERS['user.withdraw']);
    expect(r['lend.create']).toBe(RESOLVERS['lend.create']);
  });

  it('lendcheck sandbox --fault is explicit and its help says it is never on by default', async () => {
    const { buildProgram } = await import('../../cli/main.ts');
    const help = buildProgram().commands.find((c) => c.name() === 'sandbox')!.helpInformation().replace(/\s+/g, ' ');
    expect(help).toMatch(/--fault <name\[,name\]> test only, never on by default/);
    expect(help).toContain('withdraw-race');
  });

  it('a sandbox with a bad fault fails at start', () => {
    expect(() => testSandbox({ faults: [{ name: 'nope' }] })).toThrow(/unknown fault/);
  });
});

describe('withdraw-race', () => {
  const overdraw = async (faults: Parameters<typeof testSandbox>[0]) => {
    sb = testSandbox({ ...faults, startingFunds: { USDC: '1000000' } });
    const call = caller(sb);
    const rs = await Promise.all([0, 1].map(() => call('POST', '/users/u1/withdraw', { body: { asset: 'USDC', amount: '600000', destination: DEST } })));
    return rs.map((r) => r.status);
  };

  it('clean: one of two overlapping 600000 withdrawals from 1000000 is refused', async () => {
    const statuses = await overdraw({});
    expect(statuses.filter((s) => s >= 200 && s < 300)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(1);
  });

  it('on: both are accepted and the balance goes to -200000', async () => {
    const statuses = await overdraw({ faults: [{ name: 'withdraw-race' }] });
    expect(statuses.every((s) => s >= 200 && s < 300)).toBe(true);
    expect(sb!.engine.ledger.bal('partner_a', 'u1', 'USDC').available.toFixed()).toBe('-200000');
  });
});
