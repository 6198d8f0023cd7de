import type { ChildProcess } from 'node:child_process';

/** Stops a benchmark's server child: SIGTERM, then SIGKILL if it is still up 5 s later. */
export async function stopChild(c: ChildProcess): Promise<void> {
  if (c.exitCode !== null) return;
  const done = new Promise((r) => c.once('exit', r));
  c.kill('SIGTERM');
  const t = setTimeout(() => c.kill('SIGKILL'), 5000);
  await done;
  clearTimeout(t);
}
