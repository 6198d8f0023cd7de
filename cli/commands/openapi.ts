import type { Command } from 'commander';

export function registerOpenapi(program: Command): void {
  program
    .command('openapi')
    .description('Print the OpenAPI 3.1 document generated from the contract under a profile')
    .option('--profile <file>', 'profile file (JSON)')
    .action(async (opts: { profile?: string }) => {
      const { loadProfile } = await import('../../contract/index.ts');
      const { openApiText } = await import('../../contract/openapi/document.ts');
      process.stdout.write(openApiText(loadProfile(opts.profile)));
    });
}
