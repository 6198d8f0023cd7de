import type { Command } from 'commander';
import { loadProfile } from '../../contract/index.ts';
import { openApiText } from '../../contract/openapi/document.ts';

export function registerOpenapi(program: Command): void {
  program
    .command('openapi')
    .description('Print the OpenAPI 3.1 document generated from the contract under a profile')
    .option('--profile <file>', 'profile file (JSON)')
    .action((opts: { profile?: string }) => {
      process.stdout.write(openApiText(loadProfile(opts.profile)));
    });
}
