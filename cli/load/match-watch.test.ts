import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../contract/index.ts';
import { watchMatches } from './match-watch.ts';

// The matching smoke's time-to-match counts verified position.matched deliveries. Under an
// unknown signature scheme (null, issue 47) it measures by polling instead, saying why; asked
// for webhooks explicitly, it refuses in one line naming the option.

const profile = parseProfile({ signature: { scheme: null } });

describe('watchMatches under an unknown signature scheme', () => {
  it('auto: polls, with the reason and the option', async () => {
    const w = await watchMatches({ baseUrl: 'http://127.0.0.1:9/v1', partnerKeys: ['ck_test_x'], profile, matchBy: 'auto' });
    expect(w).toMatchObject({ mode: 'polling', reason: expect.stringMatching(/signature\.scheme is unknown.*--signature-scheme NAME/) });
    await w.close();
  });

  it('--match-by webhooks: a one-line error', async () => {
    await expect(watchMatches({ baseUrl: 'http://127.0.0.1:9/v1', partnerKeys: ['ck_test_x'], profile, matchBy: 'webhooks' })).rejects.toThrow(/^--match-by webhooks: the profile's signature\.scheme is unknown/);
  });
});
