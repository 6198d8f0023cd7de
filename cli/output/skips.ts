// Skip reasons belong on the console, not only in the JSON: one line per distinct reason,
// with the checks it covers (a run of skips is otherwise a bare count nobody can act on).
// `skipKind` (unaffordable, target-lacks, run-lacks, not-observed) is printed when the
// results carry it; older results have none.

interface SkippedCheck {
  id: string;
  status: string;
  message?: string;
  skipKind?: string;
}

const MAX_IDS = 6;

export function skipLines(part: { skipReason?: string; checks?: SkippedCheck[] }, max = 20): string[] {
  const skipped = (part.checks ?? []).filter((c) => c.status === 'skipped');
  if (!skipped.length) return part.skipReason ? [`skipped: ${part.skipReason}`] : [];
  const byReason = new Map<string, { kind?: string; ids: string[] }>();
  for (const c of skipped) {
    const reason = (c.message ?? 'no reason given').split('\n')[0]!;
    const key = `${c.skipKind ?? ''}\u0000${reason}`;
    const g = byReason.get(key) ?? { kind: c.skipKind, ids: [] };
    g.ids.push(c.id);
    byReason.set(key, g);
  }
  const lines = [`skipped checks (${skipped.length}), by reason:`];
  const groups = [...byReason.entries()].sort((a, b) => b[1].ids.length - a[1].ids.length);
  for (const [key, g] of groups.slice(0, max)) {
    const reason = key.split('\u0000')[1]!;
    const ids = g.ids.length > MAX_IDS ? `${g.ids.slice(0, MAX_IDS).join(', ')} and ${g.ids.length - MAX_IDS} more` : g.ids.join(', ');
    lines.push(`  - ${g.kind ? `[${g.kind}] ` : ''}${reason.length > 200 ? `${reason.slice(0, 200)}…` : reason} (${ids})`);
  }
  if (groups.length > max) lines.push(`  … ${groups.length - max} more reasons in the report`);
  return lines;
}
