import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// Live heap after a full GC, from a V8 heap snapshot (taking one collects garbage first).
// The long run uses it to tell retained state from a leak: RSS also counts SQLite's page
// cache and allocator slack, which grow to their bounds and say nothing about leaks.

interface Snapshot {
  snapshot: { meta: { node_fields: string[] } };
  nodes: number[];
}

/** Σ self_size over every node of a .heapsnapshot file, in bytes. */
export function liveHeapBytes(file: string): number {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = s.snapshot.meta.node_fields;
  const at = fields.indexOf('self_size');
  if (at < 0) throw new Error(`${file}: no self_size field in the heap snapshot`);
  let sum = 0;
  for (let i = at; i < s.nodes.length; i += fields.length) sum += s.nodes[i]!;
  return sum;
}

/** Waits for a new complete .heapsnapshot in `dir` (V8 writes it in place, so its size must settle). */
export async function awaitSnapshot(dir: string, known: Set<string>, timeoutMs = 120_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  let last = -1;
  while (Date.now() < until) {
    const f = readdirSync(dir).find((n) => n.endsWith('.heapsnapshot') && !known.has(n));
    if (f) {
      const size = statSync(join(dir, f)).size;
      if (size > 0 && size === last) {
        known.add(f);
        return join(dir, f);
      }
      last = size;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no heap snapshot appeared in ${dir} within ${timeoutMs} ms`);
}
