import type { Command } from 'commander';
import { REQUIREMENTS } from '../../contract/requirements.ts';

// `lendcheck requirements`: the spec's normative statements with the stable ids that checks
// cite and reports count coverage by, so a user can read what an id in a failure means.

export function registerRequirements(program: Command): void {
  program
    .command('requirements')
    .description('List every requirement of the spec with its id (the ids failures and coverage cite), by part')
    .option('--section <n>', 'only this part of the spec, e.g. 5')
    .option('--json', 'as JSON')
    .argument('[ids...]', 'only these ids (a trailing * matches a prefix)')
    .action((ids: string[], o: { section?: string; json?: boolean }) => {
      const match = (id: string) => !ids.length || ids.some((p) => (p.endsWith('*') ? id.startsWith(p.slice(0, -1)) : id === p));
      const rows = REQUIREMENTS.filter((r) => match(r.id) && (!o.section || r.section === o.section));
      if (!rows.length) throw new Error(`no requirement matches ${[...ids, ...(o.section ? [`--section ${o.section}`] : [])].join(' ')}`);
      if (o.json) return void console.log(JSON.stringify(rows, null, 2));
      for (const r of rows) console.log(`${r.id.padEnd(34)} part ${r.section.padEnd(3)} ${r.text}`);
    });
}
