import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// How the reader runs lendcheck where they are: installed as a package it is `lendcheck`; in a
// checkout `npx lendcheck` does not resolve (npx runs installed packages' bins), so hints name
// `node <path to cli/bin.js>` from the current folder. Every "run this next" line uses it.

const fromSources = import.meta.url.endsWith('.ts');

export function selfCommand(cwd = process.cwd()): string {
  if (!fromSources) return 'lendcheck';
  const bin = fileURLToPath(new URL('../cli/bin.js', import.meta.url));
  const rel = relative(cwd, bin);
  return `node ${rel.includes(' ') ? JSON.stringify(rel) : rel}`;
}
