import { Decimal } from '../../../../contract/decimal.ts';
import type { Profile } from '../../../../contract/index.ts';
import type { Exchanges, TimedExchange } from '../../exchanges.ts';
import { errorCode as codeOf } from '../../storm.ts';
import { account, type Flags, type LedgerInput, type LedgerOutput, type Outcome } from '../../../ledger-model/operations.ts';
import type { LedgerHistory } from './model.ts';
import { OTHER_CODES } from '../../../invalid-state.ts';

// The one place HTTP meets the ledger model: each recorded exchange becomes an operation with
// the model's input (what was asked of which account) and output (what the answer means under
// the profile). Status codes and bodies are read here and nowhere after; which endpoint was
// called and the ids it named were recorded with the call (storm.ts), never read from its URL.

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function safeDec(s: string): Decimal | undefined {
  try {
    return new Decimal(s);
  } catch {
    return undefined;
  }
}

const errorCode = (ex: TimedExchange) => codeOf(ex.response);

/** The outcome of an answer as the model sees it, under the profile's invalid-state choice. */
export function outcomeOf(profile: Profile, ex: TimedExchange): Outcome {
  const r = ex.response;
  if (!r || r.status >= 500) return { kind: 'unknown' };
  if (r.status >= 200 && r.status < 300) return { kind: 'ok' };
  const err = obj(obj(r.json).error);
  const code = errorCode(ex) ?? '';
  if (code === 'insufficient_funds') {
    const d = obj(err.details);
    return {
      kind: 'insufficient',
      ...(typeof d.available === 'string' && safeDec(d.available) ? { available: d.available } : {}),
      ...(typeof d.required === 'string' && safeDec(d.required) ? { required: d.required } : {}),
    };
  }
  // Part 7's code for a position that does not exist; a 404 with another code is some other refusal
  // (mutator seed 10 under Starter: its invalid state is a 404, undetected, so the profile kept 400).
  if (code === 'position_not_found' || (r.status === 404 && !code)) return { kind: 'not-found' };
  if (ex.kind === 'lend.create' || ex.kind === 'user.withdraw') return { kind: 'no-effect' };
  // Part 7 leaves the invalid-state code open: the profile's, or (undetected, the profile keeps its
  // default) any other refusal with a code that means nothing else, such as a 409 `conflict`.
  if (code === profile.errors.invalidState.code && r.status === profile.errors.invalidState.status) return { kind: 'invalid-state' };
  if (code && r.status >= 400 && r.status < 500 && ![401, 403, 429].includes(r.status) && !OTHER_CODES.has(code)) return { kind: 'invalid-state' };
  return { kind: 'no-effect' };
}

/** The model's input, or undefined for an exchange it does not read. `owner`: each position's account, from the lend that created it. */
function inputOf(ex: TimedExchange, owner: Map<string, string>): LedgerInput | undefined {
  const body = obj(ex.request.body);
  const { partner, ids } = ex.request;
  switch (ex.kind) {
    case 'user.withdraw':
    case 'lend.create': {
      const asset = String(body.asset ?? '');
      const amount = safeDec(String(body.amount ?? ''));
      if (!asset || !amount) return undefined;
      const lend = ex.kind === 'lend.create';
      const user = lend ? (typeof body.userId === 'string' ? body.userId : undefined) : ids.userId;
      return { kind: lend ? 'lend' : 'withdraw', account: account(partner, user), asset, amount: amount.toFixed() };
    }
    case 'position.cancel':
    case 'position.get':
    case 'position.patch': {
      const id = ids.positionId ?? '';
      // A position whose create is not in the history has no known owner: such operations are
      // grouped apart, which is sound since the model knows nothing of the position either way.
      const acc = owner.get(id) ?? account(partner, undefined);
      if (ex.kind !== 'position.patch') return { kind: ex.kind === 'position.cancel' ? 'cancel' : 'read', account: acc, id };
      const flags: Flags = { ...(typeof body.autoRollover === 'boolean' ? { autoRollover: body.autoRollover } : {}), ...(typeof body.autoRefinance === 'boolean' ? { autoRefinance: body.autoRefinance } : {}) };
      return { kind: 'patch', account: acc, id, flags };
    }
    default:
      return undefined;
  }
}

function outputOf(profile: Profile, ex: TimedExchange): LedgerOutput {
  const json = obj(ex.response?.json);
  const code = errorCode(ex);
  return {
    outcome: outcomeOf(profile, ex),
    ...(ex.kind === 'lend.create' ? { positionId: typeof json.positionId === 'string' ? json.positionId : `?${ex.id}` } : {}),
    ...(ex.kind === 'position.get' && typeof json.status === 'string' ? { status: json.status } : {}),
    ...((ex.kind === 'lend.create' || ex.kind === 'position.get') && typeof json.autoRollover === 'boolean' ? { autoRollover: json.autoRollover } : {}),
    ...(ex.response ? { received: { status: ex.response.status, ...(code !== undefined ? { code } : {}) } } : {}),
  };
}

/**
 * The history of a storm in the ledger model's words. `ignored`: exchanges it does not read
 * (kinds it does not model), and reads refused before they read anything (a 429), which
 * neither change nor show a thing.
 */
export function ledgerHistory(profile: Profile, exchanges: Exchanges): { history: LedgerHistory; ignored: Exchanges } {
  const owner = new Map<string, string>();
  for (const ex of exchanges) {
    const id = obj(ex.response?.json).positionId;
    const user = obj(ex.request.body).userId;
    if (ex.kind === 'lend.create' && typeof id === 'string' && typeof user === 'string') owner.set(id, account(ex.request.partner, user));
  }
  const history: LedgerHistory = [];
  const ignored: Exchanges = [];
  for (const ex of exchanges) {
    const input = inputOf(ex, owner);
    const output = outputOf(profile, ex);
    if (!input || (input.kind === 'read' && output.outcome.kind === 'no-effect')) ignored.push(ex);
    else history.push({ id: ex.id, client: ex.client, input, call: ex.invoke, output, return: ex.complete ?? Number.POSITIVE_INFINITY });
  }
  return { history, ignored };
}
