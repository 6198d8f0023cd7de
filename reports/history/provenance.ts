import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import type { RunKey } from './store.ts';

// What a history entry is keyed by besides target and profile: the lendcheck version and
// the git commit under test, when given (LENDCHECK_COMMIT, CI's GITHUB_SHA / CI_COMMIT_SHA)
// or found (git in the working directory).

export function lendcheckVersion(): string {
  // By the package's own name, so it resolves from the sources and from dist/ alike.
  const pkg = createRequire(import.meta.url)('lendcheck/package.json') as { version: string };
  return pkg.version;
}

export function gitCommit(cwd = process.cwd()): string | undefined {
  const given = process.env.LENDCHECK_COMMIT ?? process.env.GITHUB_SHA ?? process.env.CI_COMMIT_SHA;
  if (given) return given;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd, stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).toString().trim() || undefined;
  } catch {
    return undefined; // not a git checkout: the entry goes without a commit
  }
}

export function runKey(kind: string, commit?: string): RunKey {
  return { kind, version: lendcheckVersion(), commit: commit ?? gitCommit() };
}
