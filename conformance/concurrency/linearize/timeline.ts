import { showFunds, type State } from './model.ts';
import type { Placed } from './search.ts';

// A history as a person reads it: one lane per client on a shared time axis, each operation a
// bar from its invoke to its answer under a letter, then the letters' legend with the answers.

const WIDTH = 60;

export const letter = (i: number) => (i < 26 ? String.fromCharCode(65 + i) : `${String.fromCharCode(65 + Math.floor(i / 26) - 1)}${String.fromCharCode(65 + (i % 26))}`);

const ms = (t: number) => `+${t.toFixed(1)} ms`;

export function lanes(ops: Placed[], label: (i: number) => string = letter): string {
  if (!ops.length) return '(no operations)';
  const t0 = Math.min(...ops.map((p) => p.op.invoke));
  const ends = ops.map((p) => p.op.complete ?? Number.NaN).filter((t) => Number.isFinite(t));
  const t1 = Math.max(t0 + 0.001, ...ends, ...ops.map((p) => p.op.invoke));
  const col = (t: number) => Math.min(WIDTH - 1, Math.max(0, Math.round(((t - t0) / (t1 - t0)) * (WIDTH - 1))));
  const clients = [...new Set(ops.map((p) => p.op.client))].sort((a, b) => a - b);
  const lines = [`${' '.repeat(11)}${ms(0).padEnd(WIDTH - 10)}${ms(t1 - t0)}`];
  for (const c of clients) {
    const row = Array<string>(WIDTH + 2).fill(' ');
    ops.forEach((p, i) => {
      if (p.op.client !== c) return;
      const a = col(p.op.invoke);
      const b = p.op.complete === undefined ? WIDTH : col(p.op.complete);
      for (let x = a; x <= b; x++) row[x] = '=';
      row[a] = '[';
      row[b] = p.op.complete === undefined ? '>' : ']';
      // The letter inside its bar when it fits; a bar too short for it is found by its times in the legend.
      const tag = label(i);
      if (b - a - 1 >= tag.length) for (let k = 0; k < tag.length; k++) row[a + 1 + k] = tag[k]!;
    });
    lines.push(`client ${String(c).padEnd(3)} ${row.join('').trimEnd()}`);
  }
  const t = (p: Placed) => `${ms(p.op.invoke - t0)} … ${p.op.complete === undefined ? 'no answer' : ms(p.op.complete - t0)}`;
  const w = Math.max(...ops.map((p) => p.info.label.length));
  lines.push('');
  const lw = Math.max(3, ...ops.map((_, i) => label(i).length + 1));
  ops.forEach((p, i) => lines.push(`${label(i).padEnd(lw)}client ${String(p.op.client).padEnd(3)} ${p.info.label.padEnd(w)}  → ${p.info.answer.padEnd(28)} ${t(p)}`));
  return lines.join('\n');
}

/** The model's state in a line: funds per asset, then each position's status. */
export function showState(s: State): string {
  const f = Object.keys(s.funds).sort().map((a) => `${a} available ${showFunds(s.funds[a])}`);
  const p = Object.entries(s.pos).map(([id, x]) => `${id} ${x.status === 'partial' ? 'pending (part-filled)' : x.status}`);
  return [...f, ...p].join('; ') || '(nothing known)';
}
