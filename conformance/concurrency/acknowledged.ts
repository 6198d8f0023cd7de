import type { CheckContext } from '../check.ts';
import type { Exchanges } from './exchanges.ts';

// Writes a storm check saw acknowledged, kept in the run's shared state for the read-after-write
// check (issue 48: one fixture serves every check that can read it). A PATCH is kept with the
// read that showed it (the check already read it back, which is the read-after-write rule for a
// PATCH); a cancel is kept unread, with the history its storm recorded, so the next read of the
// position lands in the same history and the linearizability judge sees it too.

export interface Acknowledged {
  /** The check whose storm made the write. */
  check: string;
  positionId: string;
  history: Exchanges;
  /** For a PATCH: the flags written and read back, on the next read after both were acknowledged. */
  shown?: Record<string, unknown>;
}

const key = (what: 'patch' | 'cancel') => `concurrency:acknowledged:${what}`;

export function rememberWrite(ctx: Pick<CheckContext, 'shared'>, what: 'patch' | 'cancel', w: Acknowledged): void {
  if (!ctx.shared.has(key(what))) ctx.shared.set(key(what), w);
}

export const acknowledgedWrite = (ctx: Pick<CheckContext, 'shared'>, what: 'patch' | 'cancel'): Acknowledged | undefined => ctx.shared.get(key(what)) as Acknowledged | undefined;
