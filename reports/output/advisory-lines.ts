import type { Advisory, RunSummary } from '../../kernel/results.ts';
import type { Paint } from './color.ts';

// Advice on the console (issue 47): what lendcheck believes of the target's answers but the spec
// does not state, each with what it leans on and its evidence. Never part of a verdict: these
// lines come after it, and no exit code reads them.

/** What an advisory leans on: a requirement id, or the profile record. */
export const adviceBasis = (a: Pick<Advisory, 'requirement' | 'profile'>) => a.requirement ?? (a.profile ? `profile ${a.profile}` : 'no sentence');

/**
 * One line per distinct advice (the same belief about the same answer, found by several checks,
 * is said once with the checks that found it), at most `max`.
 */
export function advisoryLines(parts: RunSummary['parts'], p: Paint, max = 10): string[] {
  const byText = new Map<string, { a: Advisory; checks: string[] }>();
  for (const part of parts) {
    for (const c of part.checks) {
      for (const a of c.advisories ?? []) {
        const k = `${adviceBasis(a)}\u0000${a.expected}\u0000${a.received}`;
        const seen = byText.get(k);
        if (seen) seen.checks.push(`${part.part}/${c.id}`);
        else byText.set(k, { a, checks: [`${part.part}/${c.id}`] });
      }
    }
  }
  if (!byText.size) return [];
  const lines = [`advisories (${byText.size}): what lendcheck believes but the spec does not state; never a failure, and no exit code reads them (--strict makes them failures):`];
  for (const { a, checks } of [...byText.values()].slice(0, max)) {
    lines.push(`  ${p.yellow('!')} [${adviceBasis(a)}] ${checks.join(', ')}: expected ${clip(a.expected)} / received ${clip(a.received)}${a.evidence ? ` — ${a.evidence}` : ''}`);
  }
  if (byText.size > max) lines.push(`  … ${byText.size - max} more in the report`);
  return lines;
}

const clip = (s: string) => (s.length > 240 ? `${s.slice(0, 240)}…` : s);
