import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The CLI entry, as `npm start` and the package's bin run it. */
export const BIN = fileURLToPath(new URL('../bin.js', import.meta.url));

export interface BinRun {
  /** Exit code; null when the process was killed (e.g. by the timeout). */
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `lendcheck <args>` in a child process without blocking the test's event loop (unlike
 * spawnSync), so a test's own server can answer the child and several runs can overlap.
 */
export function runBin(args: string[], opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<BinRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: opts.timeoutMs ?? 30_000, maxBuffer: 16 * 1024 * 1024, ...(opts.env ? { env: opts.env } : {}) }, (err, stdout, stderr) => {
      const code = (err as { code?: unknown } | null)?.code;
      resolve({ status: err ? (typeof code === 'number' ? code : null) : 0, stdout, stderr });
    });
  });
}
