import type { Model, Operation } from './model.ts';

// A history as a person reads it: one lane per client on a shared time axis, each operation a
// bar from its call to its answer under a letter, then the letters' legend with the answers as
// the model describes them.

const WIDTH = 60;

export const letter = (i: number) => (i < 26 ? String.fromCharCode(65 + i) : `${String.fromCharCode(65 + Math.floor(i / 26) - 1)}${String.fromCharCode(65 + (i % 26))}`);

const ms = (t: number) => `+${t.toFixed(1)} ms`;

export function lanes<S, I, O>(model: Model<S, I, O>, ops: Array<Operation<I, O>>, label: (i: number) => string = letter): string {
  if (!ops.length) return '(no operations)';
  const answered = (o: Operation<I, O>) => Number.isFinite(o.return);
  const t0 = Math.min(...ops.map((o) => o.call));
  const t1 = Math.max(t0 + 0.001, ...ops.filter(answered).map((o) => o.return), ...ops.map((o) => o.call));
  const col = (t: number) => Math.min(WIDTH - 1, Math.max(0, Math.round(((t - t0) / (t1 - t0)) * (WIDTH - 1))));
  const clients = [...new Set(ops.map((o) => o.client))].sort((a, b) => a - b);
  const lines = [`${' '.repeat(11)}${ms(0).padEnd(WIDTH - 10)}${ms(t1 - t0)}`];
  for (const c of clients) {
    const row = Array<string>(WIDTH + 2).fill(' ');
    ops.forEach((o, i) => {
      if (o.client !== c) return;
      const a = col(o.call);
      const b = answered(o) ? col(o.return) : WIDTH;
      for (let x = a; x <= b; x++) row[x] = '=';
      row[a] = '[';
      row[b] = answered(o) ? ']' : '>';
      // The letter inside its bar when it fits; a bar too short for it is found by its times in the legend.
      const tag = label(i);
      if (b - a - 1 >= tag.length) for (let k = 0; k < tag.length; k++) row[a + 1 + k] = tag[k]!;
    });
    lines.push(`client ${String(c).padEnd(3)} ${row.join('').trimEnd()}`);
  }
  const t = (o: Operation<I, O>) => `${ms(o.call - t0)} … ${answered(o) ? ms(o.return - t0) : 'no answer'}`;
  const told = ops.map((o) => model.describe.operation(o.input, o.output));
  const w = Math.max(...told.map((d) => d.call.length));
  lines.push('');
  const lw = Math.max(3, ...ops.map((_, i) => label(i).length + 1));
  ops.forEach((o, i) => lines.push(`${label(i).padEnd(lw)}client ${String(o.client).padEnd(3)} ${told[i]!.call.padEnd(w)}  → ${told[i]!.answer.padEnd(28)} ${t(o)}`));
  return lines.join('\n');
}
