import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../contract/index.ts';
import { FetchRequest } from '../pipeline/request.ts';
import { identify } from './bearer.ts';
import { KeyStore } from './keys.ts';

// The caller stage is the one key lookup: what it finds (the partner, the refusal, the key's kind)
// is what the limiter, the routes and the partner report read, none of them the header again.

const keys = new KeyStore([{ key: 'ck_test_known', partnerId: 'p', tier: 'growth' }], defaultProfile);

function callerOf(authorization?: string) {
  const req = new FetchRequest(new Request('http://sandbox.test/v1/positions', authorization === undefined ? {} : { headers: { authorization } }), undefined);
  identify(keys, req);
  return { partner: req.partner?.partnerId, refused: req.authRefusal?.message, kind: req.keyKind };
}

describe('identify', () => {
  it('finds a valid key once: its partner, and its kind by prefix', () => {
    expect(callerOf('Bearer ck_test_known')).toEqual({ partner: 'p', refused: undefined, kind: 'test' });
  });

  it('refuses the rest and still says what kind of key was presented, never the key', () => {
    expect(callerOf()).toMatchObject({ partner: undefined, refused: expect.stringMatching(/missing/), kind: 'none' });
    expect(callerOf('Bearer ck_live_x')).toMatchObject({ partner: undefined, refused: expect.stringMatching(/production/), kind: 'live' });
    expect(callerOf('Bearer ck_test_unknown')).toMatchObject({ refused: expect.stringMatching(/invalid/), kind: 'test' });
    expect(callerOf('Bearer other')).toMatchObject({ kind: 'other' });
    // Sent without the scheme, a live key is still a live key sent (the partner report's live-key finding).
    expect(callerOf('ck_live_bare')).toMatchObject({ refused: expect.stringMatching(/Bearer scheme/), kind: 'live' });
  });
});
