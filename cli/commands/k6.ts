import type { Command } from 'commander';
import { ensureK6, readK6State } from '../../scripts/ensure-k6.mjs';
import { selfCommand } from '../../kernel/self-command.ts';

type K6State = { path: string; version: string; wanted: string; note?: string };

function print(s: K6State): void {
  console.log(`k6 ${s.version} at ${s.path}`);
  if (s.version !== s.wanted) console.log(`warning: pinned ${s.wanted} unavailable; ${s.note ?? ''}`);
}

/** `lendcheck k6`: what the install-time attempt found (k6.json); builds only when none was ever made here. */
async function show(): Promise<void> {
  const { k6Binary } = await import('../load/k6-process.ts');
  const bin = k6Binary();
  const s = (readK6State() ?? {}) as Partial<K6State>;
  print({ ...bin, wanted: s.wanted ?? bin.version, note: s.note });
  if (s.version !== s.wanted) console.log(`(${selfCommand()} k6 install tries the pinned version again)`);
}

export function registerK6(program: Command): void {
  const k6 = program
    .command('k6')
    .description('Find or build the pinned k6 and print its path and version')
    .action(show);
  // The package has no postinstall: k6 is set up on first use of `lendcheck load`, or
  // ahead of time with this (CI images, air-gapped machines with Go).
  k6.command('install')
    .description('Find the pinned k6, or build it with Go into ~/.cache/lendcheck; tries again a version whose build was refused before')
    .action(() => {
      console.error('lendcheck: finding or building the pinned k6...');
      print(ensureK6({ retryRefused: true }) as K6State);
    });
}
