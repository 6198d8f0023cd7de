// A test clock step as tests write it: '30d', '12h', '15m', '90s', '500ms', or a number of ms.
// Hand-written: four units, and no dependency of the package's runtime parses durations.

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

export function durationMs(by: string | number): number {
  if (typeof by === 'number') {
    if (!(by >= 0) || !Number.isFinite(by)) throw new Error(`clock.advance: expected a non-negative number of ms / received ${by}`);
    return by;
  }
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)\s*$/.exec(by);
  if (!m) throw new Error(`clock.advance: expected a duration like '30d', '12h', '15m', '90s' or '500ms' / received '${by}'`);
  return Math.round(Number(m[1]) * UNIT_MS[m[2]!]!);
}
