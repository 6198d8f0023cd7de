import { describe, expect, it } from 'vitest';
import { limitProbe, parseProfile } from '../../contract/index.ts';
import { CheckSkip, type CheckContext } from '../check.ts';
import { endpointChecks } from './endpoints.ts';

// A rates path the profile does not know (ratesPath null: the spec does not show it, and
// detection found it nowhere) is asserted nowhere; its check is kept and skips saying why,
// never dropped unseen, and the limiter's checks read another keyed GET.

describe('endpoint checks under an unknown rates path', () => {
  it('keeps endpoint.rates.get as a run-lacks skip naming the option, and asserts no path', async () => {
    const profile = parseProfile({ ratesPath: null });
    const checks = endpointChecks(profile);
    const rates = checks.filter((c) => c.id === 'endpoint.rates.get');
    expect(rates).toHaveLength(1);
    expect(checks.map((c) => c.title).join('\n')).not.toMatch(/GET \/rates /);
    const thrown = await rates[0]!.run({ profile } as unknown as CheckContext).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(CheckSkip);
    expect((thrown as CheckSkip).kind).toBe('run-lacks');
    expect((thrown as CheckSkip).message).toMatch(/ratesPath null/);
    expect(limitProbe(profile)).toEqual({ id: 'orderbook.get', params: { asset: expect.any(String) } });
  });

  it('with a known path, one endpoint.rates.get that asks it', () => {
    const checks = endpointChecks(parseProfile({ ratesPath: '/quotes' }));
    expect(checks.filter((c) => c.id === 'endpoint.rates.get').map((c) => c.title)).toEqual([expect.stringMatching(/^GET \/quotes /)]);
  });
});
