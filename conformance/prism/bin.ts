import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

// Prism (Stoplight's mock and validation proxy) is installed on first use into a cache folder,
// not as a dependency: the conformance proxy (proxy.ts) and the benchmarks' peers both run it.

// 5.14.2 is the newest Prism whose engines include Node 20 (5.15+ needs Node 24).
export const PRISM_VERSION = '5.14.2';
const prismDir = join(homedir(), '.cache', 'lendcheck', 'prism');

export function prismBin(): string {
  const bin = join(prismDir, 'node_modules', '.bin', 'prism');
  if (!existsSync(bin)) {
    execFileSync('npm', ['install', '--prefix', prismDir, '--no-audit', '--no-fund', `@stoplight/prism-cli@${PRISM_VERSION}`], { stdio: 'inherit' });
  }
  return bin;
}
