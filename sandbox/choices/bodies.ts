import type { FieldNames } from '../../contract/index.ts';
import type { Draw } from './draw.ts';

// The field names a drawn implementation gives the bodies the spec does not show
// (contract/profile-bodies.ts). One name per concept across its endpoints (a service names
// its webhook id the same in the registration, the list and the delete), and only names a
// client can still find its way by: an id keeps an id-like name (`id`, `…Id`, `…_id`,
// conformance/body-id.ts), and the fields the spec does name (a subscription's url, events
// and secret; an order book's lends, borrows, rate and amount; a position's status) keep them.

/** Each lendcheck-v1 name with the names another implementation might give it (the first is v1's). */
const NAMES = {
  webhookId: ['webhookId', 'id', 'subscriptionId', 'webhook_id'],
  webhooks: ['webhooks', 'items', 'subscriptions', 'results'],
  deleted: ['deleted', 'removed'],
  createdAt: ['createdAt', 'created_at', 'created'],
  positionId: ['positionId', 'id', 'position_id'],
  repaid: ['repaid', 'amountRepaid', 'repaidAmount'],
  outstanding: ['outstanding', 'remaining', 'outstandingAmount'],
  collateralReleased: ['collateralReleased', 'releasedCollateral', 'collateralReturned'],
  released: ['released', 'refunded', 'releasedAmount'],
  withdrawalId: ['withdrawalId', 'id', 'withdrawal_id', 'requestId'],
  destination: ['destination', 'address', 'to'],
  completedAt: ['completedAt', 'completed_at', 'processedAt'],
  bookAsset: ['asset', 'market', 'symbol'],
  bookMaturity: ['maturity', 'term'],
  bookTimestamp: ['timestamp', 'asOf', 'updatedAt'],
  rates: ['rates', 'entries', 'items'],
  metric: ['metric', 'name', 'kind'],
  period: ['period', 'window', 'range'],
  points: ['points', 'values', 'history'],
  pointTime: ['timestamp', 't', 'time', 'date'],
  pointValue: ['value', 'v', 'y'],
  vaults: ['vaults', 'items', 'list'],
  vaultId: ['id', 'vaultId', 'vault_id'],
  vaultName: ['name', 'title', 'label'],
  apy: ['apy', 'apr', 'yield'],
  tvl: ['tvl', 'totalValueLocked', 'deposits'],
} as const;

type Concept = keyof typeof NAMES;

/** Renames for one body: {v1 name: drawn name}, without the identities. */
function table(chosen: Record<Concept, string>, pairs: [string, Concept][]): Record<string, string> {
  return Object.fromEntries(pairs.map(([from, c]) => [from, chosen[c]] as const).filter(([from, to]) => from !== to));
}

/**
 * The drawn names of every not-shown body. With probability `keepV1` a body keeps lendcheck-v1's
 * names outright, so seeds also cover a target that shares some of the sandbox's shapes.
 */
export function drawFieldNames(d: Draw, keepV1 = 0.25): FieldNames {
  const chosen = Object.fromEntries(Object.entries(NAMES).map(([c, names]) => [c, d.pick(names)])) as Record<Concept, string>;
  const bodies: Record<keyof FieldNames, [string, Concept][]> = {
    'POST /borrow': [['positionId', 'positionId'], ['createdAt', 'createdAt']],
    'POST /positions/{positionId}/repay': [['positionId', 'positionId'], ['repaid', 'repaid'], ['outstanding', 'outstanding'], ['collateralReleased', 'collateralReleased']],
    'POST /positions/{positionId}/cancel': [['positionId', 'positionId'], ['released', 'released']],
    'PATCH /positions/{positionId}': [['positionId', 'positionId'], ['createdAt', 'createdAt']],
    'POST /users/{userId}/withdraw': [['withdrawalId', 'withdrawalId'], ['destination', 'destination'], ['createdAt', 'createdAt'], ['completedAt', 'completedAt']],
    'GET /markets/{asset}/orderbook': [['asset', 'bookAsset'], ['maturity', 'bookMaturity'], ['timestamp', 'bookTimestamp']],
    'POST /webhooks': [['webhookId', 'webhookId'], ['createdAt', 'createdAt']],
    'GET /webhooks': [['webhooks', 'webhooks'], ['webhookId', 'webhookId'], ['createdAt', 'createdAt']],
    'DELETE /webhooks/{webhookId}': [['webhookId', 'webhookId'], ['deleted', 'deleted']],
    'GET /markets/rates': [['rates', 'rates']],
    'GET /analytics/tvl': [['metric', 'metric'], ['period', 'period'], ['points', 'points'], ['timestamp', 'pointTime'], ['value', 'pointValue']],
    'GET /analytics/volume': [['metric', 'metric'], ['period', 'period'], ['points', 'points'], ['timestamp', 'pointTime'], ['value', 'pointValue']],
    'GET /analytics/rates': [['metric', 'metric'], ['period', 'period'], ['points', 'points'], ['timestamp', 'pointTime'], ['value', 'pointValue']],
    'GET /vaults': [['vaults', 'vaults'], ['id', 'vaultId'], ['name', 'vaultName'], ['apy', 'apy'], ['tvl', 'tvl']],
    'GET /vaults/{id}': [['id', 'vaultId'], ['name', 'vaultName'], ['apy', 'apy'], ['tvl', 'tvl']],
  };
  const out: FieldNames = {};
  for (const [key, pairs] of Object.entries(bodies) as [keyof FieldNames, [string, Concept][]][]) {
    if (d.chance(keepV1)) continue;
    const t = table(chosen, pairs);
    if (Object.keys(t).length) out[key] = t;
  }
  return out;
}

/** The names a drawn rename may never touch: the ones the spec itself gives (part 2, part 6). */
export const SPEC_NAMED = ['url', 'events', 'secret', 'lends', 'borrows', 'rate', 'amount', 'status', 'userId', 'type', 'data'];
