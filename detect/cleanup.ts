import { defaultProfile } from '../contract/index.ts';
import { callSpec } from '../conformance/call.ts';
import type { Probe } from './probe.ts';

// Leave nothing behind: every subscription detection took on the target is deleted when it
// ends (budget or not: a subscription left pointing at a receiver that is gone would be
// retried into the void for a day), and on Ctrl-C. What cannot be deleted (no id shown, or
// the target serves no DELETE) is returned, to be named in the summary with where it is.
// Every position detection placed that still rests is cancelled the same way (cancelPlaced).
// Users and their settled positions cannot be removed through the interface: they all carry
// the run's user-id prefix (Probe.user), which the summary names.

export interface LeftBehind {
  /** Subscriptions still on the target: "<id or (no id)> → <receiver url>: why". */
  subscriptions: string[];
  /** Resting positions detection placed whose cancel was not taken: "position <id>: why". */
  positions?: string[];
  /** The prefix every user id of this run starts with. */
  userPrefix: string;
}

/**
 * Cancels every position detection placed that still rests (no cancel tried, not matched): a
 * resting order left on the book is one the suites' orders could cross, and a check that needs a
 * book free of others' orders skips. The room for each cancel was kept out of the budget (Probe.owed).
 */
export async function cancelPlaced(p: Probe): Promise<string[]> {
  const left: string[] = [];
  for (const id of [...p.placed]) {
    try {
      const r = await p.call('position.cancel', { params: { positionId: id } });
      if (r.status < 200 || r.status > 299) left.push(`position ${id}: its cancel answered ${r.status}`);
    } catch (e) {
      left.push(`position ${id}: cancel failed: ${(e as Error).message}`);
      p.settled(id);
    }
  }
  return left;
}

export async function removeSubscriptions(p: Probe): Promise<string[]> {
  const left: string[] = [];
  for (const [id, sub] of [...p.subscriptions]) {
    if (id.startsWith('(no id)')) {
      left.push(`${id}: the registration showed no id to delete it by`);
      continue;
    }
    try {
      // Never refused for want of budget: its room was kept out of what the detectors could spend (Probe.owed), and it counts.
      const del = callSpec(defaultProfile, 'webhooks.delete', { params: { webhookId: id }, key: sub.key === undefined ? p.opts.key : sub.key });
      p.used++;
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
  if (l.positions?.length) {
    lines.push(`  left on ${target}: ${l.positions.length} resting order(s) detection placed whose cancel was not taken:`);
    for (const s of l.positions) lines.push(`    ${s}`);
  }
  return lines;
}
