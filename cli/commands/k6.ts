import type { Command } from 'commander';
// @ts-expect-error plain ESM script without types; it must stay dependency-free for postinstall
import { ensureK6 } from '../../scripts/ensure-k6.mjs';

export function registerK6(program: Command): void {
  program
    .command('k6')
    .description('Find or build the pinned k6 and print its path and version')
    .action(() => {
      const s = ensureK6() as { path: string; version: string; wanted: string; note?: string };
      console.log(`k6 ${s.version} at ${s.path}`);
      if (s.version !== s.wanted) console.log(`warning: pinned ${s.wanted} unavailable; ${s.note ?? ''}`);
    });
}
