import { observedEndMs } from '../validate/checks.ts';
import { scheduleContext, type ValidateOptions } from '../validate/validate.ts';
import type { AttemptRow, SessionRow } from '../store.ts';

// When an active run may stop watching: every event it caused has arrived, and every event the
// receiver saw has its schedule observed to its end by the same rules the validation applies
// (chaos/validate/checks.ts, observedEndMs). Judging then gives the verdict waiting longer would.

export interface Caused {
  /** Ids the target returned for events it was asked to emit (sandbox triggers). */
  eventIds: string[];
  /** Events the target's own records imply (type about subject), e.g. position.created for a position it created. */
  pairs: Array<{ subject: string; type: string }>;
}

/** What the run still waits for at nowMs, one line each; empty when the schedule is observed to its end. */
export function stillAwaited(rows: AttemptRow[], sessions: SessionRow[], opts: ValidateOptions, caused: Caused, nowMs: number): string[] {
  const ctx = scheduleContext(rows, sessions, { ...opts, untilMs: nowMs });
  const out: string[] = [];
  const ids = new Set(rows.map((r) => r.eventId));
  const pairs = new Set(rows.filter((r) => r.sigOk).map((r) => `${r.eventType}|${r.subject}`));
  for (const id of caused.eventIds) if (!ids.has(id)) out.push(`event ${id}: no delivery yet`);
  for (const p of caused.pairs) if (!pairs.has(`${p.type}|${p.subject}`)) out.push(`${p.type} for ${p.subject}: no delivery yet`);
  for (const e of ctx.events) {
    const end = observedEndMs(ctx, e);
    if (end === undefined) out.push(`${e.tag}: attempt ${e.attempts.length} still being answered`);
    else if (nowMs <= end) out.push(`${e.tag}: observed to its end at ${new Date(end).toISOString()}`);
  }
  return out;
}
