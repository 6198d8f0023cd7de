import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';

// The checkout of another commit, for a benchmark's "before" column: a detached git worktree
// with this checkout's node_modules linked in, removed again by the returned function.

export function checkoutRef(root: string, ref: string, dir: string): { path: string; remove(): void } {
  const path = join(dir, 'before');
  execFileSync('git', ['-C', root, 'worktree', 'add', '--detach', path, ref], { stdio: 'ignore' });
  symlinkSync(join(root, 'node_modules'), join(path, 'node_modules'));
  return { path, remove: () => execFileSync('git', ['-C', root, 'worktree', 'remove', '--force', path], { stdio: 'ignore' }) };
}
