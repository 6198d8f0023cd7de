import { Command } from 'commander';
import { vi } from 'vitest';

// Runs one subcommand in-process for a test (spawning the CLI costs seconds on a loaded box):
// what it logged, and the exit code it set.
export async function runInProcess(register: (program: Command) => void, argv: string[]): Promise<{ code: number; out: string }> {
  const program = new Command('lendcheck').exitOverride();
  register(program);
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
  process.exitCode = undefined;
  try {
    await program.parseAsync(['node', 'lendcheck', ...argv]);
  } finally {
    spy.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { code, out: lines.join('\n') };
}
