import type { Command } from 'commander';
import { ensureK6 } from '../../scripts/ensure-k6.mjs';

function ensureAndPrint(): void {
  const s = ensureK6() as { path: string; version: string; wanted: string; note?: string };
  console.log(`k6 ${s.version} at ${s.path}`);
  if (s.version !== s.wanted) console.log(`warning: pinned ${s.wanted} unavailable; ${s.note ?? ''}`);
}

export function registerK6(program: Command): void {
  const k6 = program
    .command('k6')
    .description('Find or build the pinned k6 and print its path and version')
    .action(ensureAndPrint);
  // The package has no postinstall: k6 is set up on first use of `lendcheck load`, or
  // ahead of time with this (CI images, air-gapped machines with Go).
  k6.command('install')
    .description('Find the pinned k6, or build it with Go into ~/.cache/lendcheck (once)')
    .action(() => {
      console.error('lendcheck: finding or building the pinned k6...');
      ensureAndPrint();
    });
}
