import type { Exchanges, TimedExchange } from './exchanges.ts';
import { positionIdIn } from '../body-id.ts';

// A history as a timeline a person can read: one line per operation, ordered by invoke
// time, with its span in ms from the storm's start drawn as a bar, so overlaps show.

const WIDTH = 24;

function outcome(op: TimedExchange): string {
  if (!op.response) return 'no answer';
  const err = (op.response.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  const id = positionIdIn(op.response.json);
  return `${op.response.status}${typeof err === 'string' ? ` ${err}` : ''}${typeof id === 'string' ? ` ${id}` : ''}`;
}

function describe(op: TimedExchange): string {
  const b = op.request.body as Record<string, unknown> | undefined;
  const parts = b ? ['amount', 'asset', 'borrowAmount', 'borrowAsset', 'autoRollover', 'autoRefinance'].filter((k) => b[k] !== undefined).map((k) => `${k}=${String(b[k])}`) : [];
  const coll = b?.collateral as { asset?: unknown; amount?: unknown } | undefined;
  if (coll && typeof coll === 'object') parts.unshift(`collateral=${String(coll.amount)} ${String(coll.asset)}`);
  const money = parts.join(' ');
  return `${op.request.method} ${op.request.path.split('?')[0]}${money ? ` {${money}}` : ''}${op.request.partner === 2 ? ' (partner 2)' : ''}`;
}

export function timeline(history: Exchanges, max = 40): string {
  if (!history.length) return '(empty history)';
  const ops = [...history].sort((a, b) => a.invoke - b.invoke);
  const t0 = ops[0]!.invoke;
  const end = Math.max(...ops.map((o) => o.complete ?? o.invoke));
  const span = Math.max(1, end - t0);
  const col = (t: number) => Math.min(WIDTH - 1, Math.floor(((t - t0) / span) * WIDTH));
  const lines = ops.slice(0, max).map((o) => {
    const a = col(o.invoke);
    const b = o.complete === undefined ? WIDTH - 1 : col(o.complete);
    const bar = ' '.repeat(a) + '█'.repeat(Math.max(1, b - a + 1)) + ' '.repeat(Math.max(0, WIDTH - b - 1));
    const at = `${(o.invoke - t0).toFixed(1)}–${o.complete === undefined ? '?' : (o.complete - t0).toFixed(1)} ms`;
    return `#${o.id} |${bar}| ${at.padEnd(16)} ${o.kind.padEnd(15)} ${describe(o)} → ${outcome(o)}`;
  });
  if (ops.length > max) lines.push(`… and ${ops.length - max} more operations`);
  return lines.join('\n');
}
