import type { RunSummary } from '../../kernel/results.ts';
import type { Paint } from './color.ts';

/** One line per failed check, with the requirement ids it breaks: the end of a run's output. */
export function failedCheckLines(parts: RunSummary['parts'], p: Paint): string[] {
  return parts.flatMap((part) =>
    part.checks
      .filter((c) => c.status === 'failed')
      .map((c) => `  ${p.red('✗')} ${c.requirements.length ? `[${c.requirements.join(', ')}] ` : ''}${part.part}/${c.id}: ${firstLine(c.message ?? c.title)}${c.internalError ? p.yellow(' (lendcheck internal error)') : ''}`),
  );
}

function firstLine(s: string): string {
  const l = s.split('\n')[0];
  return l.length > 240 ? `${l.slice(0, 240)}…` : l;
}
