import { randomBytes } from 'node:crypto';
import type { EventType, Profile } from '../../contract/index.ts';
import { invalid } from '../answer/errors.ts';
import { iso } from '../store/rows.ts';

// Event data for POST /v1/sandbox/trigger, in the manner of `stripe trigger`: a real
// position's data when positionId names one, otherwise a synthetic record marked as such.

const rid = (prefix: string) => `${prefix}_synthetic_${randomBytes(6).toString('hex')}`;

const STATUS_AFTER: Record<Exclude<EventType, 'withdrawal.completed'>, (p: Profile) => string> = {
  'position.created': () => 'pending',
  'position.matched': () => 'active',
  'position.matured': () => 'matured',
  'position.liquidated': (p) => p.lifecycle.statusAfterLiquidation,
  'position.rolled': () => 'matured',
};

/** Adds the fields each event type carries beyond the position's own (contract shapes.eventDataShapes). */
export function withTypeFields(profile: Profile, type: EventType, base: Record<string, unknown>): Record<string, unknown> {
  const data = { ...base };
  if (type === 'position.matched' && !profile.webhooks.matchedIncludesType) delete data.type;
  if (type === 'position.matured' && data.payout === undefined) data.payout = data.amount;
  if (type === 'position.liquidated' && data.collateralSeized === undefined) data.collateralSeized = '0';
  if (type === 'position.rolled' && data.newPositionId === undefined) data.newPositionId = rid('pos');
  return data;
}

export function syntheticData(profile: Profile, type: EventType, userId: string | undefined, nowMs: number): Record<string, unknown> {
  const user = userId ?? 'user_synthetic';
  if (type === 'withdrawal.completed') {
    return {
      withdrawalId: rid('wd'),
      userId: user,
      asset: 'USDC',
      amount: '100',
      destination: `0x${'0'.repeat(40)}`,
      status: 'completed',
      createdAt: iso(nowMs),
      completedAt: iso(nowMs),
      synthetic: true,
    };
  }
  const base = {
    positionId: rid('pos'),
    userId: user,
    type: type === 'position.liquidated' ? 'borrow' : 'lend',
    asset: 'USDC',
    amount: '100',
    rate: 0.05,
    maturity: iso(nowMs + 30 * 86_400_000),
    status: STATUS_AFTER[type](profile),
    synthetic: true,
  };
  return withTypeFields(profile, type, base);
}

export function positionData(profile: Profile, type: EventType, position: Record<string, unknown>): Record<string, unknown> {
  if (type === 'withdrawal.completed') throw invalid('positionId', 'withdrawal.completed is not about a position; omit positionId');
  return withTypeFields(profile, type, position);
}
