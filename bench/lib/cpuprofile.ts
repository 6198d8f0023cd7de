import { fileURLToPath } from 'node:url';

// Where the time goes, from a V8 .cpuprofile: self time per node, grouped by what owns the
// code (a package in node_modules, a folder of this repo, Node's internals, V8 native
// builtins, the garbage collector). Idle time is left out, so shares are of busy CPU.

export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface Share {
  name: string;
  ms: number;
  /** Fraction of busy (non-idle) time. */
  share: number;
}

export interface Breakdown {
  busyMs: number;
  idleMs: number;
  groups: Share[];
  functions: Share[];
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Who owns a frame: `zod`, `sandbox/engine`, `node internals`, `(garbage collector)`, … */
export function owner(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : 'V8 builtins and native bindings';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1]!;
  if (url.startsWith('node:')) return 'node internals';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  if (path.startsWith(ROOT)) return path.slice(ROOT.length).split('/').slice(0, -1).slice(0, 2).join('/') || path.slice(ROOT.length);
  return 'other';
}

/** Our files by path (tsx compiles them, so their line numbers are not the source's); others by owner and line. */
function place(url: string, group: string, lineNumber: number): string {
  if (!url) return group;
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  return path.startsWith(ROOT) && !path.includes('node_modules') ? path.slice(ROOT.length) : `${group}:${lineNumber + 1}`;
}

export function breakdown(p: CpuProfile, top = 16): Breakdown {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  // timeDeltas[i] is the time before sample i; charge it to that sample's node.
  for (let i = 0; i < p.samples.length; i++) selfUs.set(p.samples[i]!, (selfUs.get(p.samples[i]!) ?? 0) + (p.timeDeltas[i] ?? 0));
  const groups = new Map<string, number>();
  const fns = new Map<string, number>();
  let idle = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') {
      idle += us;
      continue;
    }
    const g = owner(url, functionName);
    groups.set(g, (groups.get(g) ?? 0) + us);
    const where = place(url, g, lineNumber);
    const fn = `${functionName || '(anonymous)'} (${where})`;
    fns.set(fn, (fns.get(fn) ?? 0) + us);
  }
  const busy = [...groups.values()].reduce((a, b) => a + b, 0);
  const rank = (m: Map<string, number>, n: number): Share[] =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([name, us]) => ({ name, ms: us / 1000, share: busy ? us / busy : 0 }));
  return { busyMs: busy / 1000, idleMs: idle / 1000, groups: rank(groups, 100), functions: rank(fns, top) };
}

export function formatBreakdown(b: Breakdown, title: string, groupsShown = 12): string {
  const pct = (s: number) => `${(s * 100).toFixed(1).padStart(5)} %`;
  return [
    `${title}: ${b.busyMs.toFixed(0)} ms busy, ${b.idleMs.toFixed(0)} ms idle`,
    '  self time by owner:',
    ...b.groups.slice(0, groupsShown).map((g) => `    ${pct(g.share)}  ${g.name}`),
    '  hottest functions (self time):',
    ...b.functions.map((f) => `    ${pct(f.share)}  ${f.name}`),
  ].join('\n');
}
