import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Runs `lendcheck sandbox` as its own process and waits for the URL it prints. Kill tests
// and long-run drills need a real process to SIGKILL or to measure, not an in-process app.

const BIN = fileURLToPath(new URL('../../cli/bin.js', import.meta.url));

export interface SandboxProcess {
  child: ChildProcess;
  /** Base URL ending in /v1, as the command printed it. */
  url: string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
}

/** `args` are the command's flags after `sandbox`, e.g. ['--port', '0', '--db', file]. */
export function spawnSandbox(
  args: string[],
  opts: { track?: ChildProcess[]; startTimeoutMs?: number; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [BIN, 'sandbox', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: opts.env, cwd: opts.cwd });
  opts.track?.push(child);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${out}${err}`)), opts.startTimeoutMs ?? 60_000);
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, exited, stderr: () => err });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code}: ${err}`));
    });
  });
}
