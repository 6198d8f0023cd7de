import { defaultProfile, endpointKey, endpoints, parseProfile, type FieldNames, type Profile, type ProfileInput } from '../../contract/index.ts';
import { SIGNATURE_SCHEMES } from '../../signing/signature.ts';
import { intAt, pickAt, unit, wordAt } from './mutate-hash.ts';
import { randomChoices } from './random.ts';

// The shape mutator's profile half (`sandbox --choices mutate --seed N`): the seed's answer at
// the open points whose answers are values, generated over their whole legal range rather than
// picked from a list (random.ts): any 2xx that fits the endpoint where "Success status codes: not shown", a 204 with no
// body where the body is open too, made-up codes with other 4xx statuses for the conditions part 7
// leaves open, made-up bounds, durations, periods and a made-up rates path. Everything else is
// --choices random's draw for the same seed. The profile is what the mutated sandbox is: the
// sandbox prints it with --choices-out, and legal.ts's rules hold for it (mutate.test.ts).

/**
 * The 2xx statuses HTTP gives a meaning that fits an endpoint (RFC 9110), by what it does: a read
 * may be 203 (the only other fit: 206 needs a Range request, 207/208 are WebDAV's multi-status
 * bodies), a creation 201 or 202, any other change 202, and 204 where it may be empty.
 */
const FITTING = { read: [200, 203], create: [200, 201, 202], change: [200, 202] };
/** Endpoints whose answer may be empty: the body is not shown and holds no id a client needs (sandbox/choices/mutate-shapes.ts keptNames). */
const MAY_BE_EMPTY = new Set(['POST /positions/{positionId}/cancel', 'PATCH /positions/{positionId}', 'DELETE /webhooks/{webhookId}']);
/** 4xx statuses a refusal may take: every client error but those the spec (401, 429) or HTTP itself (405 Allow, 407, 408, 413, 415, 426 …) gives another meaning. */
const CLIENT_ERRORS = [400, 403, 404, 409, 410, 412, 422, 423, 424];
/** The conditions whose code the spec leaves open (part 7 and the unknown route, sizes and media types), with the statuses HTTP allows them. */
const OPEN_CONDITIONS: Record<string, number[]> = {
  invalidState: CLIENT_ERRORS, unsupportedAsset: CLIENT_ERRORS, repayOnLend: CLIENT_ERRORS,
  unknownRoute: [400, 404, 410], payloadTooLarge: [400, 413], methodNotAllowed: [400, 404, 405], unsupportedMediaType: [400, 415],
};

/** A made-up code in one of the forms codes come in, never one part 7 names. */
function codeAt(seed: number, where: string, status: number): { code: string; status: number } {
  if (status === 400 && unit(seed, `${where}.spec`) < 0.25) return { code: 'invalid_request', status };
  const w = wordAt(seed, `${where}.code`, intAt(seed, `${where}.len`, 4, 9));
  return { code: pickAt(seed, `${where}.form`, [w, `${w}_error`, w.toUpperCase(), `E${intAt(seed, `${where}.num`, 1000, 9999)}`]), status };
}

/** A decimal m·10^k: a bound nobody listed, exact. */
function decimalAt(seed: number, where: string, minExp: number, maxExp: number): string {
  const m = intAt(seed, `${where}.m`, 1, 99);
  const k = intAt(seed, `${where}.k`, minExp, maxExp);
  if (k >= 0) return String(m * 10 ** k);
  const s = String(m).padStart(-k + 1, '0');
  return `${s.slice(0, k)}.${s.slice(k)}`.replace(/0+$/, '').replace(/\.$/, '');
}

function successStatuses(seed: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of endpoints(defaultProfile)) {
    if (e.access === 'sandbox') continue;
    const key = e.id === 'rates.get' ? 'GET /rates' : endpointKey(e);
    const does = e.method === 'GET' ? 'read' : e.owns && e.owns.verb === 'create' ? 'create' : 'change';
    const legal = [...FITTING[does], ...(MAY_BE_EMPTY.has(key) ? [204] : [])];
    // Half the endpoints keep the usual status, so a seed is not all oddities.
    out[key] = unit(seed, `status.${key}.odd`) < 0.5 ? legal[does === 'create' ? 1 : 0]! : pickAt(seed, `status.${key}`, legal);
  }
  return out;
}

function durations(seed: number, where: string, units: string[]): string[] {
  const n = intAt(seed, `${where}.n`, 1, 4);
  const out = new Set<string>();
  for (let i = 0; i < n; i++) out.add(`${intAt(seed, `${where}.${i}`, 1, 400)}${pickAt(seed, `${where}.${i}.u`, units)}`);
  return [...out];
}

/** A path no endpoint has, one or two made-up segments (detection's candidates are a list; this is not on it). */
function ratesPath(seed: number): string {
  const segs = Array.from({ length: intAt(seed, 'rates.segs', 1, 2) }, (_, i) => wordAt(seed, `rates.seg${i}`, intAt(seed, `rates.len${i}`, 3, 9)));
  const path = `/${segs.join(pickAt(seed, 'rates.join', ['/', '-', '_']))}`;
  // A made-up word may still be a path the table has (/vaults): then it takes a suffix.
  return TAKEN.has(path) ? `${path}-now` : path;
}
const TAKEN = new Set(endpoints({ ...defaultProfile, ratesPath: null }).map((e) => e.path.replace(/\/\{\w+\}.*$/, '')));

/** The ids a client finds in the not-shown bodies, under the drawn names (the profile records them). */
function recordedIds(fieldNames: FieldNames): ProfileInput['ids'] {
  const n = (key: keyof FieldNames, v1: string) => fieldNames[key]?.[v1] ?? v1;
  return { borrow: n('POST /borrow', 'positionId'), repay: n('POST /positions/{positionId}/repay', 'positionId'), withdrawal: n('POST /users/{userId}/withdraw', 'withdrawalId'), webhook: n('POST /webhooks', 'webhookId') };
}

/** The mutated profile as a profile file would hold it (over the defaults). */
export function mutatedChoices(seed: number): ProfileInput {
  const base = randomChoices(seed);
  const maturities = durations(seed, 'maturities', ['d']).sort((a, b) => parseInt(a) - parseInt(b));
  const periods = durations(seed, 'periods', ['d', 'h', 'w', 'm', 'y']);
  const minRatio = (intAt(seed, 'ratio.min', 110, 300) / 100).toFixed(2);
  const fieldNames = (base.bodies?.fieldNames ?? {}) as FieldNames;
  const errors = Object.fromEntries(Object.entries(OPEN_CONDITIONS).map(([k, statuses]) => [k, codeAt(seed, `errors.${k}`, pickAt(seed, `errors.${k}.status`, statuses))]));
  const { repayOnLend, ...openErrors } = errors;
  const minOrder = decimalAt(seed, 'amounts.minOrder', -2, 1);
  return {
    ...base,
    name: `mutate-${seed}`,
    successStatus: successStatuses(seed),
    ratesPath: ratesPath(seed),
    signature: { scheme: pickAt(seed, 'signature', SIGNATURE_SCHEMES) },
    webhooks: { ...base.webhooks, secretMinLength: unit(seed, 'secretMin.none') < 0.3 ? null : intAt(seed, 'secretMin', 7, 32) },
    limits: { ...base.limits, publicBurst: intAt(seed, 'publicBurst', 60, 240), maxBodyBytes: intAt(seed, 'maxBody', 8_192, 262_144) },
    bounds: { rateBelow: pickAt(seed, 'rateBelow', [null, 1, 0.5, 2]), orderbookMaxDepth: unit(seed, 'depth.none') < 0.3 ? null : intAt(seed, 'depth', 10, 5000) },
    lifecycle: { ...base.lifecycle, defaultMaturity: pickAt(seed, 'defaultMaturity', maturities), repayOnLend: repayOnLend! },
    errors: { ...base.errors, ...openErrors, unknownUser: pickAt(seed, 'unknownUser', ['empty-list', 'position_not_found'] as const) },
    amounts: {
      minOrder,
      maxOrder: decimalAt(seed, 'amounts.maxOrder', 4, 7),
      minWithdrawal: decimalAt(seed, 'amounts.minWithdrawal', -2, 1),
      minCollateralRatio: minRatio,
      liquidationRatio: (intAt(seed, 'ratio.liq', 101, Math.round(Number(minRatio) * 100) - 1) / 100).toFixed(2),
    },
    markets: { maturities, idSeparator: pickAt(seed, 'idSeparator', ['-', ':', '_', '.', '~', '--']), periods, defaultPeriod: pickAt(seed, 'defaultPeriod', periods) },
    ids: recordedIds(fieldNames),
  };
}

/** The mutated profile, parsed over the defaults. */
export function mutatedProfile(seed: number): Profile {
  return parseProfile(mutatedChoices(seed));
}
