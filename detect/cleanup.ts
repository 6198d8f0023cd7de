import { defaultProfile } from '../contract/index.ts';
import { callSpec } from '../conformance/call.ts';
import type { Probe } from './probe.ts';

// Leave nothing behind: every subscription detection took on the target is deleted when it
// ends (budget or not: a subscription left pointing at a receiver that is gone would be
// retried into the void for a day), and on Ctrl-C. What cannot be deleted (no id shown, or
// the target serves no DELETE) is returned, to be named in the summary with where it is.
// Positions and users cannot be removed through the interface: they all carry the run's
// user-id prefix (Probe.user), which the summary names.

export interface LeftBehind {
  /** Subscriptions still on the target: "<id or (no id)> → <receiver url>: why". */
  subscriptions: string[];
  /** The prefix every user id of this run starts with. */
  userPrefix: string;
}

export async function removeSubscriptions(p: Probe): Promise<string[]> {
  const left: string[] = [];
  for (const [id, sub] of [...p.subscriptions]) {
    if (id.startsWith('(no id)')) {
      left.push(`${id}: the registration showed no id to delete it by`);
      continue;
    }
    try {
      // Outside the detection budget on purpose: cleaning up is never skipped for want of requests.
      const del = callSpec(defaultProfile, 'webhooks.delete', { params: { webhookId: id }, key: sub.key === undefined ? p.opts.key : sub.key });
      const r = await p.http.request(del);
      if (r.status >= 200 && r.status < 300) p.subscriptions.delete(id);
      else left.push(`${id} → ${sub.url}: ${del.method} ${del.path} answered ${r.status}`);
    } catch (e) {
      left.push(`${id} → ${sub.url}: DELETE failed: ${(e as Error).message}`);
    }
  }
  return left;
}

/** The summary lines for what stays on the target. */
export function leftBehindLines(l: LeftBehind, target: string): string[] {
  const lines = [`  left on ${target}: users and their positions under the user-id prefix "${l.userPrefix}" (the interface has no delete for them)`];
  if (l.subscriptions.length) {
    lines.push(`  left on ${target}: ${l.subscriptions.length} webhook subscription(s) that could not be deleted; remove them in the partner dashboard:`);
    for (const s of l.subscriptions) lines.push(`    ${s}`);
  } else lines.push('  every webhook subscription detection made was deleted');
  return lines;
}
