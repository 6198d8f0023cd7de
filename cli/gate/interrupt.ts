import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

// Ctrl-C (SIGINT) or a CI's SIGTERM on the gate. The run ends as an interrupted run: the steps
// done are reported, the partial report is written, and the process exits with the one table's
// code (3, INCOMPLETE; 1 when a check had already failed), leaving no process behind.
//
// Vitest, running conformance in this process, installs its own SIGINT handler that exits 1 ms
// later with 130 (128 + SIGINT), before any report could be written. While the gate winds
// down, process.exit is therefore held: calls to it are ignored until the gate exits itself.

export interface Interrupt {
  /** Aborted on the first signal; runGate stops waiting on its steps then. */
  signal: AbortSignal;
  /** The signal's name, once one arrived. */
  readonly received?: string;
  /** Exits for real (the held process.exit), after every process of ours is ended. */
  exit(code: number): never;
  /** Removes the handlers and gives process.exit back (the run ended on its own). */
  dispose(): void;
}

export function onInterrupt(say: (line: string) => void): Interrupt {
  const controller = new AbortController();
  const realExit = process.exit.bind(process) as (code?: number) => never;
  let received: string | undefined;
  const exit = (code: number): never => {
    endDescendants('SIGKILL');
    return realExit(code);
  };
  const handler = (sig: NodeJS.Signals) => {
    if (received) {
      say(`${sig} again: stopping at once, no report`);
      exit(3);
    }
    received = sig;
    // Whoever else handles the signal (Vitest) finds the exit code set and keeps it.
    process.exitCode = 3;
    process.exit = (() => undefined) as unknown as typeof process.exit;
    say(`${sig}: stopping; the steps done are kept and the partial report is written (${sig === 'SIGINT' ? 'Ctrl-C' : sig} again stops at once)`);
    controller.abort();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    get received() {
      return received;
    },
    exit,
    dispose() {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
      process.exit = realExit as typeof process.exit;
    },
  };
}

/** Pids of this process's children, their children, and so on (Vitest's workers, k6). */
export function descendants(pid = process.pid): number[] {
  const children = childrenOf(pid);
  return children.flatMap((c) => [c, ...descendants(c)]);
}

function childrenOf(pid: number): number[] {
  // Linux: /proc, no process spawned; elsewhere pgrep -P.
  try {
    const out: number[] = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        // Field 4 of /proc/<pid>/stat is the parent's pid; the name (field 2) may hold spaces, so read after its ')'.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(name));
      } catch {
        // gone meanwhile
      }
    }
    return out;
  } catch {
    const r = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' });
    return r.stdout.split('\n').filter(Boolean).map(Number);
  }
}

/** Ends every process this one started, deepest first; returns how many were still running. */
export function endDescendants(sig: NodeJS.Signals = 'SIGTERM'): number {
  const pids = descendants().reverse();
  for (const p of pids) {
    try {
      process.kill(p, sig);
    } catch {
      // already gone
    }
  }
  return pids.length;
}
