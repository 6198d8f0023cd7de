import { redact } from '../reports/redact.ts';
import { Command } from 'commander';
import { createRequire } from 'node:module';
import { COMMANDS } from './commands/index.ts';

// By the package's own name, so it resolves from the sources and from dist/ alike.
const pkg = createRequire(import.meta.url)('lendcheck/package.json') as { version: string; description: string };

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

const isCrash = (e: unknown): boolean => e instanceof TypeError || e instanceof ReferenceError || e instanceof RangeError || e instanceof SyntaxError;

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    const err = e as { code?: string; exitCode?: number; message?: string };
    if (err.code?.startsWith('commander.')) process.exit(err.exitCode ?? 1);
    console.error(`lendcheck: ${redact.text(err.message ?? String(e))}`);
    // A TypeError and its kind are a bug of lendcheck's, not a bad flag or an unreachable target:
    // its trace is kept for whoever fixes it, and said to be ours.
    if (isCrash(e)) console.error(`lendcheck internal error (a bug in lendcheck, not a verdict on the target); its trace:\n${redact.text((e as Error).stack ?? '')}`);
    process.exit(2);
  }
}
