import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PlanInput } from '../plan.ts';
import type { DrillOptions } from './restart-options.ts';

// The receiver side of the restart drill: receiver-process.ts as a child on a fixed port,
// started live or on standby (loaded, released by a line on stdin).

const ENTRY = fileURLToPath(new URL('./receiver-process.ts', import.meta.url));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function writePlan(dir: string, holdMs: number): string {
  const file = join(dir, `hold-first-${holdMs}ms.json`);
  const plan: PlanInput = { name: `drill: hold attempt 1 for ${holdMs} ms`, rules: [{ attempts: [1], fault: 'slow-headers', config: { delayMs: holdMs, status: 200 } }] };
  writeFileSync(file, JSON.stringify(plan));
  return file;
}

export interface ReceiverChild {
  child: ChildProcess;
  exited: Promise<void>;
  /** Resolves once the process printed `line` (or rejects when it exits first). */
  waitFor(line: RegExp, timeoutMs?: number): Promise<void>;
}

export type ReceiverOptions = Pick<DrillOptions, 'dir' | 'timeScale' | 'holdFirstMs' | 'lossy' | 'track' | 'log'>;

export function spawnReceiver(o: ReceiverOptions, db: string, port: number, secret: string, standby: boolean): ReceiverChild {
  const plan = o.holdFirstMs ? [`--plan=${writePlan(o.dir, o.holdFirstMs)}`] : [];
  const args = [ENTRY, db, String(port), String(o.timeScale), ...plan, ...(standby ? ['--standby'] : []), ...(o.lossy ? ['--lossy'] : [])];
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, LENDCHECK_WEBHOOK_SECRET: secret }, stdio: ['pipe', 'pipe', 'pipe'] });
  o.track?.push(child);
  let out = '';
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => o.log?.(`receiver: ${String(d).trim()}`));
  return {
    child,
    exited,
    waitFor: (line, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`receiver did not print ${line} within ${timeoutMs} ms: ${out}`)), timeoutMs);
        const look = () => line.test(out) && (clearTimeout(t), child.stdout!.off('data', look), resolve());
        child.stdout!.on('data', look);
        look();
        exited.then(() => (clearTimeout(t), reject(new Error(`receiver exited before printing ${line}: ${out}`))), reject);
      }),
  };
}
