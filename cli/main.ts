import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { COMMANDS } from './commands/index.ts';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string; description: string };

export function buildProgram(): Command {
  const program = new Command('lendcheck')
    .description(pkg.description)
    .version(pkg.version, '-V, --version')
    .showHelpAfterError()
    .exitOverride((err) => {
      // commander's own exits (help, version, usage errors) keep their codes.
      throw err;
    });
  for (const register of COMMANDS) register(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    const err = e as { code?: string; exitCode?: number; message?: string };
    if (err.code?.startsWith('commander.')) process.exit(err.exitCode ?? 1);
    console.error(`lendcheck: ${err.message ?? String(e)}`);
    process.exit(2);
  }
}
