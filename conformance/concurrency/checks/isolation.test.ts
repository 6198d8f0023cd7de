import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../../contract/index.ts';
import { CheckSkip, type CheckContext } from '../../check.ts';
import { listIds } from './isolation.ts';

// The legal 404 for a user a target does not know (errors.unknownUser = position_not_found) is an
// empty list for isolation, not a reason to skip: the partner-leak fault hid behind that skip (neutrality.md, seed 6).

function ctxAnswering(status: number, json: unknown, unknownUser: 'empty-list' | 'position_not_found'): CheckContext {
  const profile = parseProfile({ errors: { unknownUser } });
  const answer = async () => ({ status, json, text: JSON.stringify(json), headers: {}, ms: 1 });
  return { profile, call: answer, api: answer } as unknown as CheckContext;
}

const notFound = { error: { code: 'position_not_found', message: 'no positions for user u' } };

describe('listIds', () => {
  it('reads 404 position_not_found as "no positions" where the profile says unknown users are refused so', async () => {
    expect(await listIds(ctxAnswering(404, notFound, 'position_not_found'), 'u')).toEqual([]);
  });

  it('still skips, naming the answer, where the profile expects an empty list or the code differs', async () => {
    await expect(listIds(ctxAnswering(404, notFound, 'empty-list'), 'u')).rejects.toBeInstanceOf(CheckSkip);
    await expect(listIds(ctxAnswering(404, { error: { code: 'not_found', message: 'x' } }, 'position_not_found'), 'u')).rejects.toThrow(/answered 404/);
  });

  it('lists the ids of an accepted answer', async () => {
    expect(await listIds(ctxAnswering(200, { positions: [{ positionId: 'p1' }, { positionId: 'p2' }], hasMore: false }, 'position_not_found'), 'u')).toEqual(['p1', 'p2']);
  });
});
