import { randomBytes, randomUUID } from 'node:crypto';
import { EVENT_TYPES, shapes, type EventType } from '../../contract/index.ts';

// Realistic deliveries built from the contract: every data object parses with the event's
// shape in contract/shapes.ts (the test checks), so a receiver that validates strictly
// against the contract still accepts them.

export interface Envelope {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

const iso = (ms: number) => new Date(ms).toISOString();
const DAY = 86_400_000;
let n = 0;

export function eventData(type: EventType, now = Date.now()): Record<string, unknown> {
  n++;
  const positionId = `pos_${randomBytes(6).toString('hex')}`;
  const base = {
    positionId,
    userId: `user_${1000 + (n % 97)}`,
    type: type === 'position.liquidated' ? 'borrow' : 'lend',
    asset: ['USDC', 'USDT', 'DAI'][n % 3],
    amount: `${1000 + n}.250000`,
    rate: 0.0725,
    maturity: iso(now + 30 * DAY),
    status: 'active',
  };
  switch (type) {
    case 'position.created':
      return { ...base, status: 'pending' };
    case 'position.matched':
      return base;
    case 'position.matured':
      return { ...base, status: 'matured', maturity: iso(now - 1000), payout: `${1006 + n}.208125` };
    case 'position.liquidated':
      return { ...base, status: 'liquidated', collateralSeized: '0.512000000000000000' };
    case 'position.rolled':
      return { ...base, status: 'matured', newPositionId: `pos_${randomBytes(6).toString('hex')}` };
    case 'withdrawal.completed':
      return {
        withdrawalId: `wd_${randomBytes(6).toString('hex')}`,
        userId: base.userId,
        asset: 'USDC',
        amount: '250.000000',
        destination: `0x${randomBytes(20).toString('hex')}`,
        status: 'completed',
        createdAt: iso(now - 60_000),
        completedAt: iso(now),
      };
  }
}

export function makeEvent(type: EventType, now = Date.now()): Envelope {
  return { id: `evt_${randomUUID()}`, type, timestamp: iso(now), data: eventData(type, now) };
}

export { EVENT_TYPES, shapes };
