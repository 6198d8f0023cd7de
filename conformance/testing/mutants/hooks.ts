import { matches } from './kit.ts';
import { registerMutants } from './mutant.ts';

// Mutants of webhook subscriptions and deliveries (spec part 6). Deliveries leave the
// sandbox's dispatcher directly, so these act on the subscription the dispatcher uses.

function alterSubscription(edit: (b: Record<string, unknown>) => Record<string, unknown>) {
  return async (req: Request, next: (r: Request) => Promise<Response>) => {
    if (!matches(req, 'webhooks.create')) return next(req);
    let body: Record<string, unknown>;
    try {
      body = (await req.clone().json()) as Record<string, unknown>;
    } catch {
      return next(req);
    }
    if (!body || typeof body !== 'object' || typeof body.url !== 'string' || !body.url.includes('/lendcheck-hook')) return next(req);
    return next(new Request(req.url, { method: 'POST', headers: req.headers, body: JSON.stringify(edit(body)) }));
  };
}

export const HOOK_MUTANTS = registerMutants([
  {
    id: 'hook.signed-with-another-secret',
    breaks: 'deliveries are signed with a secret other than the subscription secret',
    rule: 'HOOK-verify-raw',
    killers: ['hooks.delivery'],
    direction: 'upstream',
    install: () => alterSubscription((b) => ({ ...b, secret: 'whsec_not_the_partners_secret_0000' })),
  },
  {
    id: 'hook.events-ignored',
    breaks: 'a subscription gets other event types than the ones it named',
    rule: 'HOOK-subscription',
    killers: ['hooks.delivery'],
    waits: 'hooks.delivery waits DELIVERY_WAIT_MS (10 s) for the position.matched delivery',
    direction: 'upstream',
    install: () => alterSubscription((b) => ({ ...b, events: ['withdrawal.completed'] })),
  },
]);
