import type { FieldNames, Profile } from '../../contract/index.ts';
import { intAt, pickAt, unit, wordAt } from './mutate-hash.ts';

// The shape mutator's body half (`sandbox --choices mutate --seed N`): what a seed does to a
// success body as it leaves. Nothing here lists alternatives anyone thought of: the changes are
// the generic ones a JSON body admits, applied at any key of a body the spec does not show
// (contract/endpoints.ts responseSource 'profile'), decided per (seed, endpoint, key path):
//   - a value becomes null, is dropped, renamed (to a made-up name) or nested one level deeper,
//     and made-up fields appear;
//   - EXCEPT the fields a client must still find (keptNames): the ids the profile records
//     (`ids.*`, part 4 gives a client no other way to the new position, withdrawal or
//     subscription) and a generated webhook secret (part 6: the receiver verifies with it).
// On every success body, shown ones too, part 2's conventions allow two more forms: a decimal
// string with or without trailing zeros ("100" is "100.00"), and an ISO 8601 UTC timestamp
// without fractional seconds.

export interface ShapePlan {
  seed: number;
  /** The chance that one key of a not-shown body (or one object, for extra fields) is changed. */
  rate: number;
  amounts: 'as-is' | 'minimal' | 'padded';
  times: 'as-is' | 'seconds';
  /** The served OpenAPI document leaves the rates path out: a path detection cannot find. */
  hideRatesPath: boolean;
}

export function shapePlan(seed: number): ShapePlan {
  return {
    seed,
    rate: pickAt(seed, 'plan.rate', [0.1, 0.25, 0.5]),
    amounts: pickAt(seed, 'plan.amounts', ['as-is', 'minimal', 'padded'] as const),
    times: pickAt(seed, 'plan.times', ['as-is', 'seconds'] as const),
    hideRatesPath: unit(seed, 'plan.hideRatesPath') < 0.3,
  };
}

type Op = 'keep' | 'null' | 'drop' | 'rename' | 'nest';
const OPS: Op[] = ['null', 'drop', 'rename', 'nest'];

/** The names in one endpoint's body a client must still find (the profile's names for them). */
export function keptNames(profile: Profile, key: string): Set<string> {
  const names = (profile.bodies.fieldNames as FieldNames)[key as keyof FieldNames] ?? {};
  const n = (v1: string) => names[v1] ?? v1;
  const ids = profile.ids;
  switch (key) {
    case 'POST /borrow': return new Set([ids.borrow ?? n('positionId')]);
    case 'POST /positions/{positionId}/repay': return new Set([ids.repay ?? n('positionId')]);
    case 'POST /users/{userId}/withdraw': return new Set([ids.withdrawal ?? n('withdrawalId')]);
    case 'POST /webhooks': return new Set([ids.webhook ?? n('webhookId'), 'secret']);
    // The list is how a client finds its subscriptions to delete them.
    case 'GET /webhooks': return new Set([n('webhooks'), ids.webhook ?? n('webhookId')]);
    default: return new Set();
  }
}

/** A made-up name for a key; never id-like (…Id, …_id), so no field becomes a second id. */
function renamed(seed: number, where: string, k: string): string {
  const w = wordAt(seed, `${where}.name`, 3);
  return pickAt(seed, `${where}.style`, [`${k}_${w}`, `${k}${w[0]!.toUpperCase()}${w.slice(1)}`, `${w}_${k.toLowerCase()}`.replace(/_?id$/, '_ref')]);
}

function extraValue(seed: number, where: string): unknown {
  const w = wordAt(seed, `${where}.v`, 6);
  return pickAt(seed, `${where}.t`, [w, intAt(seed, `${where}.n`, 0, 999), true, null, { [w]: 1 }, [w]]);
}

/** A not-shown body with the seed's changes; `keep` names stay where they are, as they are. */
export function mutateBody(plan: ShapePlan, key: string, body: unknown, keep: ReadonlySet<string>): unknown {
  const { seed, rate } = plan;
  const walk = (v: unknown, path: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, `${path}[]`));
    if (!v || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    const wrap = `${wordAt(seed, `${path}.wrap`, 5)}`;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const where = `${key}${path}.${k}`;
      const op: Op = keep.has(k) || unit(seed, `${where}.p`) >= rate ? 'keep' : pickAt(seed, `${where}.op`, OPS);
      if (op === 'drop') continue;
      if (op === 'null') out[k] = null;
      else if (op === 'rename') out[renamed(seed, where, k)] = walk(x, `${path}.${k}`);
      else if (op === 'nest' && !(wrap in v)) ((out[wrap] ??= {}) as Record<string, unknown>)[k] = walk(x, `${path}.${k}`);
      else out[k] = walk(x, `${path}.${k}`);
    }
    if (unit(seed, `${key}${path}.extra`) < rate) {
      for (let i = intAt(seed, `${key}${path}.extras`, 1, 3); i > 0; i--) {
        const name = wordAt(seed, `${key}${path}.extra${i}`, 6);
        if (!(name in out) && !keep.has(name)) out[name] = extraValue(seed, `${key}${path}.extra${i}`);
      }
    }
    return out;
  };
  return walk(body, '');
}

/** Part 2's decimal strings, and the not-shown bodies' own (contract/shapes.ts), by name. */
const DECIMAL_KEYS = new Set(['amount', 'totalLent', 'totalBorrowed', 'projectedReturn', 'accruedInterest', 'outstanding', 'repaid', 'collateralReleased', 'released', 'tvl', 'required', 'available', 'payout', 'collateralSeized', 'value']);
const DECIMAL = /^\d+(\.\d+)?$/;
const FRACTION_TIME = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.\d+(Z|[+-]\d\d:\d\d)$/;

function decimalForm(s: string, form: ShapePlan['amounts']): string {
  if (!DECIMAL.test(s) || form === 'as-is') return s;
  if (form === 'minimal') return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
  const [i, f = ''] = s.split('.');
  return `${i}.${f.padEnd(2, '0')}`;
}

/** Amounts and timestamps in the seed's form, at any depth of any success body (values unchanged). */
export function normalizeBody(plan: ShapePlan, body: unknown): unknown {
  if (plan.amounts === 'as-is' && plan.times === 'as-is') return body;
  const walk = (v: unknown, k: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, k));
    if (typeof v === 'string') {
      if (DECIMAL_KEYS.has(k)) return decimalForm(v, plan.amounts);
      return plan.times === 'seconds' ? v.replace(FRACTION_TIME, '$1$2') : v;
    }
    if (!v || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([n, x]) => [n, walk(x, n)]));
  };
  return walk(body, '');
}
