import type { Command } from 'commander';
import { loadProfile, NOT_SHOWN, profileSchema } from '../../contract/index.ts';

export function registerProfile(program: Command): void {
  program
    .command('profile')
    .description('Print the effective profile (defaults merged with --profile FILE), validating the file')
    .option('--profile <file>', 'profile file (JSON) to validate and merge over the defaults')
    .option('--explain', 'list every "not shown" spec point with the options that answer it')
    .action((opts: { profile?: string; explain?: boolean }) => {
      const profile = loadProfile(opts.profile);
      if (!opts.explain) {
        console.log(JSON.stringify(profile, null, 2));
        return;
      }
      const schema = profileSchema.toJSONSchema() as { properties: Record<string, unknown> };
      for (const n of NOT_SHOWN) {
        console.log(`- spec: …${n.phrase}…`);
        for (const a of n.answers) console.log(`    ${a}${describe(schema, a)}`);
      }
    });
}

function describe(schema: { properties: Record<string, unknown> }, path: string): string {
  if (path.startsWith('shapes.')) return '  (response shape in contract/shapes.ts)';
  let node: unknown = schema;
  for (const k of path.split('.')) node = (node as { properties?: Record<string, unknown> })?.properties?.[k];
  const reason = (node as { reason?: string } | undefined)?.reason;
  return reason ? `  — ${reason}` : '';
}
