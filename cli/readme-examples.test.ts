import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from './main.ts';

// Every `lendcheck …` example in the README names a real subcommand with real options, so
// the examples cannot drift from the CLI unnoticed.

const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].replace(/\\\n\s*/g, ' '));
const examples = blocks.flatMap((b) => b.split('\n')).map((l) => l.replace(/#.*$/, '').trim()).filter((l) => /^(npx )?lendcheck /.test(l));

function resolve(program: Command, words: string[]): { cmd: Command; rest: string[] } {
  let cmd = program;
  let i = 0;
  for (; i < words.length; i++) {
    const next = cmd.commands.find((c) => c.name() === words[i]);
    if (!next) break;
    cmd = next;
  }
  return { cmd, rest: words.slice(i) };
}

describe('README examples', () => {
  const program = buildProgram();
  it('has an example for every subcommand', () => {
    const named = new Set(examples.map((e) => resolve(program, e.replace(/^npx /, '').split(/\s+/).slice(1)).cmd.name()));
    for (const c of program.commands) {
      if (c.commands.length) for (const sub of c.commands) expect(examples.some((e) => e.includes(`lendcheck ${c.name()} ${sub.name()}`)), `${c.name()} ${sub.name()}`).toBe(true);
      else expect(named.has(c.name()), c.name()).toBe(true);
    }
  });

  it.each(examples)('%s', (line) => {
    const words = line.replace(/^npx /, '').split(/\s+/).slice(1).filter((w) => w !== '>' && !w.endsWith('.json') || w.startsWith('--'));
    const { cmd, rest } = resolve(program, words);
    // Only the program's own options (`lendcheck --version`) may stand without a subcommand.
    if (cmd === program) expect(rest.length > 0 && rest.every((w) => w.startsWith('-')), `${line}: names no subcommand`).toBe(true);
    const known = cmd.options.flatMap((o) => [o.long, o.short]).filter(Boolean);
    for (const f of rest.filter((w) => w.startsWith('--'))) expect(known, `${line}: ${f}`).toContain(f.split('=')[0]);
  });
});
