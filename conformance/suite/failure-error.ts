import type * as results from '../../kernel/results.ts';
import type { Redactor } from '../../reports/redact.ts';
import { reproductionText } from '../../reports/repro/curl.ts';

/**
 * What Vitest shows for a failed check: the target's behaviour (the message, the requirement
 * ids, the reproduction), and no stack: a stack here would be lendcheck's own frames and a
 * code frame of this suite, which point the reader at our code instead of their service. A
 * crash of lendcheck keeps its stack, labelled as lendcheck's.
 */
export class CheckFailed extends Error {
  override name = 'CheckFailed';
}

export function checkFailed(r: results.CheckResult, redactor: Redactor): Error {
  const lines = [r.message ?? 'failed'];
  if (r.requirements.length) lines.push(`breaks ${r.requirements.join(', ')}`);
  lines.push(...reproductionText(r));
  if (r.internalError) lines.push('', 'lendcheck internal error (a bug in lendcheck, not a verdict on the target); its stack:', r.internalError);
  const e = new CheckFailed(redactor.text(lines.join('\n')));
  // Only the message: Vitest prints no frame and no code frame for a stack without "at" lines.
  e.stack = `${e.name}: ${e.message}`;
  return e;
}
