import { EVERY, EVERY_KEY, EVERY_PUBLIC, type Beyond, type EndpointRef } from '../contract/requirement-binds.ts';

// What each check judges (issue 47): the endpoints whose answers it may fail a target on, and
// what beyond an endpoint it judges (the deliveries a target sends, the ledger across
// requests). With contract/requirement-binds.ts this lets a test hold every check to the rule
// "a check fails a target only through a requirement that binds what it judges"
// (conformance/requirement-binding.ts). A check may declare its scope itself (`scope`); the
// table holds the rest. An `endpoint.<id>` check judges endpoint <id>. A check in neither is
// refused by the test: a new check says what it judges.

export interface CheckScope {
  /** Endpoint ids (contract/endpoints.ts) whose answers the check judges, or every endpoint (of one access). */
  endpoints: readonly EndpointRef[];
  beyond?: readonly Beyond[];
}

const on = (...endpoints: EndpointRef[]): CheckScope => ({ endpoints });
const also = (s: CheckScope, ...beyond: Beyond[]): CheckScope => ({ ...s, beyond });
const LIST = on('positions.list');
const BODIES = ['lend.create', 'borrow.create', 'user.withdraw', 'position.patch', 'webhooks.create'];

export const CHECK_SCOPE: Record<string, CheckScope> = {
  'auth.missing-header': on(EVERY_KEY),
  'auth.bad-credentials': on(EVERY_KEY),
  'auth.isolation': on(EVERY_KEY),
  'authz.matrix': also(on(EVERY_KEY), 'deliveries'),
  'authz.webhook-url': also(on('webhooks.create'), 'deliveries'),
  'endpoint.every-success-body': on(EVERY),
  'lifecycle.lend-read-list': on('lend.create', 'position.get', 'positions.list'),
  'lifecycle.lend-options': on('lend.create'),
  'lifecycle.cancel': on('position.cancel', 'position.get'),
  'lifecycle.match': on('borrow.create', 'position.get'),
  'lifecycle.repay': on('position.repay', 'position.get'),
  'lifecycle.patch': on('position.patch', 'position.get'),
  'lifecycle.withdraw': on('user.withdraw'),
  'lifecycle.maturity': on('position.get', 'positions.list'),
  'pagination.default-limit': LIST,
  'pagination.max-limit': LIST,
  'pagination.walk': LIST,
  'pagination.filters': LIST,
  'pagination.bad-cursor': LIST,
  'pagination.stable-insert': LIST,
  'pagination.edges': LIST,
  'orderbook.depth': on('orderbook.get'),
  'errors.invalid.lend': on('lend.create'),
  'errors.invalid.borrow': on('borrow.create'),
  'errors.invalid.withdraw': on('user.withdraw'),
  'errors.invalid.repay': on('position.repay'),
  'errors.invalid.patch': on('position.patch'),
  'errors.invalid.webhooks': on('webhooks.create'),
  'errors.invalid.query': on('positions.list', 'orderbook.get'),
  'errors.insufficient-funds': on('lend.create', 'borrow.create', 'user.withdraw'),
  'errors.position-not-found': on('position.get', 'position.repay', 'position.cancel', 'position.patch'),
  'errors.internal-error-shape': on(EVERY),
  'fuzz.bodies': on(...BODIES),
  'fuzz.not-json': on(...BODIES),
  'fuzz.query': on('positions.list', 'orderbook.get'),
  'fuzz.path': on('position.get', 'public.vault'),
  'hooks.delivery': also(on('webhooks.create'), 'deliveries'),
  'hooks.retry-schedule': also(on(), 'deliveries'),
  'hooks.every-delivery': also(on(), 'deliveries'),
  'hooks.partner-isolation': also(on(), 'deliveries'),
  'hooks.subscribed-types': also(on(), 'deliveries'),
  'hooks.matched-each-side': also(on(), 'deliveries'),
  'hooks.answer-window': also(on(), 'deliveries'),
  'concurrency.withdraw-overcommit': also(on('user.withdraw'), 'ledger'),
  'concurrency.lend-overcommit': also(on('lend.create'), 'ledger'),
  'concurrency.borrow-overcommit': also(on('borrow.create'), 'ledger'),
  'concurrency.cancel-once': also(on('position.cancel'), 'ledger'),
  'concurrency.repay-once': also(on('position.repay'), 'ledger'),
  'concurrency.conservation': also(on(), 'ledger'),
  'concurrency.partner-isolation': also(on(EVERY_KEY), 'ledger'),
  'concurrency.pagination-writes': LIST,
  'concurrency.patch-no-lost-update': on('position.patch', 'position.get'),
  'concurrency.matching-no-overfill': also(on('position.get'), 'ledger'),
  'concurrency.read-after-write': on('position.get'),
  'limits.refill': on(EVERY_KEY),
  'limits.headers-decrease': on(EVERY),
  'limits.tiers': on(EVERY_KEY, EVERY_PUBLIC),
  'limits.burst-429': on(EVERY_KEY),
  'limits.public-429': on(EVERY_PUBLIC),
  'limits.headers-everywhere': on(EVERY),
  'concurrency.linearizable-ledger': also(on('position.cancel', 'user.withdraw', 'position.patch'), 'ledger'),
  'model.ledger-walk': also(on('position.repay', 'position.cancel', 'user.withdraw', 'position.patch'), 'ledger'),
};

/** A check's scope: its own, the table's, or an endpoint check's endpoint; undefined when none says. */
export function scopeOf(check: { id: string; scope?: CheckScope }): CheckScope | undefined {
  if (check.scope) return check.scope;
  if (CHECK_SCOPE[check.id]) return CHECK_SCOPE[check.id];
  const endpoint = /^endpoint\.(.+)$/.exec(check.id)?.[1];
  return endpoint ? on(endpoint) : undefined;
}
