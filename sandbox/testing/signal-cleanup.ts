import type { ChildProcess } from 'node:child_process';

// For drill scripts run by hand: Ctrl-C (or a SIGTERM) skips their finally blocks, and the
// processes they spawned would keep running, holding ports and database files.

/** On SIGINT/SIGTERM: SIGKILL every child still running, run `cleanup`, exit 128 + signal number. */
export function killChildrenOnSignal(children: ChildProcess[], cleanup?: () => void): void {
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.once(signal, () => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      try {
        cleanup?.();
      } finally {
        process.exit(code);
      }
    });
  }
}
