import { redact } from '../reports/redact.ts';
import { Command, CommanderError } from 'commander';
import { createRequire } from 'node:module';
import { COMMANDS } from './commands/index.ts';
import { EXIT, EXIT_CODE_HELP } from './exit-codes.ts';
import { selfCommand } from '../kernel/self-command.ts';

// By the package's own name, so it resolves from the sources and from dist/ alike.
const pkg = createRequire(import.meta.url)('lendcheck/package.json') as { version: string; description: string };

/** A usage error of commander's, with the command it happened in (for the pointer to its --help). */
class UsageError extends Error {
  constructor(readonly commanderError: CommanderError, readonly commandPath: string) {
    super(commanderError.message.replace(/^error: /, '').replace(/\.$/, ''));
  }
}

const pathOf = (c: Command): string => (c.parent ? `${pathOf(c.parent)} ${c.name()}`.trim() : '');

export function buildProgram(): Command {
  const program = new Command('lendcheck').description(pkg.description).version(pkg.version, '-V, --version');
  for (const register of COMMANDS) register(program);
  // Every command, however deep: a usage error is one line and a pointer to that command's
  // --help (not the whole help), and the help ends in the one exit-code table.
  const all = (c: Command): Command[] => [c, ...c.commands.flatMap(all)];
  for (const c of all(program)) {
    if (!c.options.some((o) => o.long === '--verbose')) c.option('--verbose', 'framework output, progress and traces too (off by default)');
    c.showHelpAfterError(false)
      .configureOutput({ outputError: () => {} })
      .addHelpText('after', EXIT_CODE_HELP)
      .exitOverride((err) => {
        if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help' || err.exitCode === 0) throw err;
        throw new UsageError(err, pathOf(c));
      });
  }
  return program;
}

const isCrash = (e: unknown): boolean => e instanceof TypeError || e instanceof ReferenceError || e instanceof RangeError || e instanceof SyntaxError;

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  const verbose = argv.includes('--verbose');
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`lendcheck: ${e.message}; see ${selfCommand()}${e.commandPath ? ` ${e.commandPath}` : ''} --help`);
      process.exit(EXIT.usage);
    }
    const err = e as { code?: string; exitCode?: number; message?: string };
    if (err.code?.startsWith('commander.')) process.exit(err.exitCode ?? EXIT.usage);
    console.error(`lendcheck: ${redact.text(err.message ?? String(e))}`);
    // A TypeError and its kind are a bug of lendcheck's, not a bad flag or an unreachable target:
    // its trace is kept for whoever fixes it, and said to be ours.
    if (isCrash(e)) console.error(`lendcheck internal error (a bug in lendcheck, not a verdict on the target)${verbose ? `; its trace:\n${redact.text((e as Error).stack ?? '')}` : '; rerun with --verbose for its trace'}`);
    process.exit(EXIT.usage);
  }
}
