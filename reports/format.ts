/** Durations as people read them: 840 ms, 12.3 s, 4 min 05 s, 26 h 36 min. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  const neg = ms < 0 ? '-' : '';
  const a = Math.abs(ms);
  if (a < 1000) return `${neg}${Math.round(a)} ms`;
  if (a < 60_000) return `${neg}${(a / 1000).toFixed(1)} s`;
  const s = Math.round(a / 1000);
  if (s < 3600) return `${neg}${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  const m = Math.round(s / 60);
  return `${neg}${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}
