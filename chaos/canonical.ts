import { createHash } from 'node:crypto';

// Key-sorted JSON, so two deliveries carrying the same content hash the same however the
// sender ordered its keys. Small enough that a dependency would cost more than it saves.
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .filter((k) => o[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(',')}}`;
}

export const sha256 = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');
