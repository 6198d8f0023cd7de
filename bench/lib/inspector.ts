import { WebSocket } from 'undici';

// Heap in use after a full GC, asked of another Node process over its inspector (started
// with --inspect=127.0.0.1:0). The long run uses it to tell retained state from a leak:
// RSS also counts SQLite's page cache and allocator slack, and a heap snapshot (the other
// way to force a GC from outside) leaves RSS inflated for the rest of the run.

/** The inspector's WebSocket URL from the "Debugger listening on ws://…" line on stderr. */
export function inspectorUrl(stderr: string): string | undefined {
  return /Debugger listening on (ws:\/\/\S+)/.exec(stderr)?.[1];
}

export interface Inspector {
  /** Collects garbage, then reads process.memoryUsage() in the inspected process (bytes). */
  heapAfterGc(): Promise<{ heapUsed: number; external: number; rss: number }>;
  /** Evaluates an expression there and returns its JSON-serialisable value. */
  evaluate(expression: string): Promise<unknown>;
  close(): void;
}

export async function connectInspector(url: string): Promise<Inspector> {
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve(), { once: true });
    ws.addEventListener('error', () => reject(new Error(`inspector at ${url}: connection failed`)), { once: true });
  });
  let next = 1;
  const waiting = new Map<number, (r: { result?: { result?: { value?: string } }; error?: { message: string } }) => void>();
  ws.addEventListener('message', (m) => {
    const msg = JSON.parse(String(m.data)) as { id?: number };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg as never);
  });
  const call = (method: string, params?: unknown) =>
    new Promise<{ result?: { result?: { value?: string } } }>((resolve, reject) => {
      const id = next++;
      waiting.set(id, (r) => {
        waiting.delete(id);
        if (r.error) reject(new Error(`${method}: ${r.error.message}`));
        else resolve(r);
      });
      ws.send(JSON.stringify({ id, method, params }));
    });
  const evaluate = async (expression: string) => (await call('Runtime.evaluate', { expression, returnByValue: true })).result?.result?.value;
  return {
    evaluate,
    async heapAfterGc() {
      await call('HeapProfiler.collectGarbage');
      return JSON.parse((await evaluate('JSON.stringify(process.memoryUsage())')) as string) as { heapUsed: number; external: number; rss: number };
    },
    close: () => ws.close(),
  };
}
