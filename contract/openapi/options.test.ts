import { describe, expect, it } from 'vitest';
import { profileOptions } from '../../detect/options.ts';
import { buildOpenApi } from './document.ts';
import { OPTION_EFFECTS } from './options.ts';
import { defaultProfile, parseProfile } from '../profile.ts';

// Walks the table of contract/openapi/options.ts: under each row's value the exported
// document changes in exactly the parts the row lists (each of them, nothing else).

type Json = unknown;
const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** JSON Pointers of every place two documents differ (a key on one side only counts at that key). */
function diff(a: Json, b: Json, at = ''): string[] {
  if (a === b) return [];
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    const keys = [...new Set([...ka, ...kb])];
    return keys.flatMap((k) => {
      const x = (a as Record<string, Json>)[k];
      const y = (b as Record<string, Json>)[k];
      if (!(k in (a as object)) || !(k in (b as object))) return [`${at}/${esc(k)}`];
      return diff(x, y, `${at}/${esc(k)}`);
    });
  }
  return [at];
}

/** Whether `part` (with `*` segments) is a prefix of `pointer`. */
function covers(part: string, pointer: string): boolean {
  const p = part.split('/').slice(1);
  const q = pointer.split('/').slice(1);
  return p.length <= q.length && p.every((s, i) => s === '*' || s === q[i]);
}

/** Deep merge of a profile input over the defaults, as a user's file would set one option. */
function over(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    const b = base[k];
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && b && typeof b === 'object' && !Array.isArray(b) && !['successStatus', 'publicEnvelope', 'responses', 'transitions', 'info'].includes(k) ? over(b as Record<string, unknown>, v as Record<string, unknown>) : v;
  }
  return out;
}

describe('the profile option → document table', () => {
  const base = buildOpenApi(defaultProfile);

  it('has one row per profile option, and one for the recorded response shapes', () => {
    const rows = OPTION_EFFECTS.map((r) => r.option);
    expect(new Set(rows).size).toBe(rows.length);
    expect([...rows].sort()).toEqual([...profileOptions(), 'responses'].sort());
  });

  for (const row of OPTION_EFFECTS) {
    it(`${row.option}: ${row.parts.length ? row.says : `changes nothing (${row.says})`}`, () => {
      if (!row.set) {
        // One choice only: any other value is refused, so the document cannot vary with it.
        const [top, leaf] = row.option.split('.');
        expect(() => parseProfile(leaf ? { [top]: { [leaf]: 'another-choice' } } : { [top]: 'another-choice' })).toThrow(/invalid profile/);
        return;
      }
      const profile = parseProfile(over(defaultProfile as unknown as Record<string, unknown>, row.set));
      const changed = diff(base, buildOpenApi(profile));
      const stray = changed.filter((c) => !row.parts.some((p) => covers(p, c)));
      expect(stray, 'parts changed that the table does not list').toEqual([]);
      for (const part of row.parts) expect(changed.some((c) => covers(part, c)), `${part} did not change`).toBe(true);
    });
  }

  it('would catch a row that lists too little: the diff of a real change is not empty', () => {
    const changed = diff(base, buildOpenApi(parseProfile({ webhooks: { secretRequired: true } })));
    expect(changed).toEqual(['/paths/~1webhooks/post/requestBody/content/application~1json/schema/required/2']);
  });
});
