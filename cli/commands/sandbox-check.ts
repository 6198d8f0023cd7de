import type { Command } from 'commander';
import { existsSync } from 'node:fs';

// `lendcheck sandbox-check --db <file>`: the ledger invariant checker over a sandbox
// database (after a crash drill, or a file someone hands over). Exit 0 clean, 1 violations.
// A top-level command rather than `sandbox check`: commander would take both, but the
// sandbox command's own flags (--port, --db …) would then read as the check's in --help.

export function registerSandboxCheck(program: Command): void {
  program
    .command('sandbox-check')
    .description("Check a sandbox database's ledger invariants (conservation, locks, fills, outbox); exit 1 on any violation")
    .requiredOption('--db <file>', 'the SQLite file `lendcheck sandbox --db` wrote (opened read-only)')
    .option('--profile <file>', 'profile the sandbox ran with (its status names)')
    .option('--json', 'print the result as JSON', false)
    .action(async (o: { db: string; profile?: string; json: boolean }) => {
      if (!existsSync(o.db)) throw new Error(`--db: no file ${o.db}`);
      const { loadProfile } = await import('../../contract/index.ts');
      const { checkDbFile } = await import('../../sandbox/store/check.ts');
      const r = checkDbFile(o.db, loadProfile(o.profile));
      if (o.json) console.log(JSON.stringify({ db: o.db, ok: r.violations.length === 0, ...r }, null, 2));
      else {
        const c = r.counts;
        console.log(`${r.violations.length === 0 ? 'PASSED' : 'FAILED'} sandbox-check ${o.db}: ${r.violations.length} violation(s) over ${c.positions} positions, ${c.fills} fills, ${c.balances} balances, ${c.withdrawals} withdrawals, ${c.events} events, ${c.external} external credits`);
        for (const v of r.violations) console.log(`  ${v.rule}  ${v.message}`);
      }
      process.exitCode = r.violations.length === 0 ? 0 : 1;
    });
}
