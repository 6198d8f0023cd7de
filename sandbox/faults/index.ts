// The sandbox's faults, in one typed registry (faults/registry.ts): the engine's resolvers (this
// folder), the webhook sender (sandbox/webhooks/faults/) and the limiter (sandbox/limiter/faults/).
// A fault is a module that exports its definition; it is on only when this list names it, so
// `SANDBOX_FAULTS.get('withdraw-rase')` is a type error. None is ever on by default: a sandbox
// gets faults only from SandboxOptions.faults (tests) or from an explicit
// `lendcheck sandbox --fault <name>[,<name>]`, checked by `validateFaults` before anything starts.
import { atSeam, faultRegistry, type FaultSetting, type Installed, type NameOf } from '../../faults/index.ts';
import { SENDER_FAULTS } from '../webhooks/faults/index.ts';
import { slowRefill } from '../limiter/faults/index.ts';
import { withdrawRace } from './withdraw-race.ts';
import { lendRace } from './lend-race.ts';
import { borrowRace } from './borrow-race.ts';
import { cancelRace } from './cancel-race.ts';
import { repayRace } from './repay-race.ts';
import { patchLostUpdate } from './patch-lost-update.ts';
import { cursorShift } from './cursor-shift.ts';
import { counterRace } from './counter-race.ts';
import { partnerLeak } from './partner-leak.ts';
import { matchOverfill } from './match-overfill.ts';
import { staleRead } from './stale-read.ts';
import { withdrawNotDebited } from './withdraw-not-debited.ts';
import { cancelDoubleRefund } from './cancel-double-refund.ts';
import { OWNER_UNCHECKED } from './owner-unchecked.ts';
import { listIgnoresPartner } from './list-ignores-partner.ts';
import { userUnscoped } from './user-unscoped.ts';
import { lendAssetFromCollateral } from './lend-asset-from-collateral.ts';
import { depthIgnoredBelowDefault } from './depth-ignored-below-default.ts';
import { hasMoreOnFullLastPage } from './hasmore-on-full-last-page.ts';
import type { Resolver } from '../endpoints/resolvers.ts';
import type { Profile } from '../../contract/index.ts';
import type { BodyParser, EngineFault, FaultResolver } from './fault.ts';

export type { FaultSetting } from '../../faults/index.ts';
export { parseFaultFlag } from '../../faults/index.ts';
export type { EngineFault } from './fault.ts';

/** The engine's faults, in order. */
const ENGINE_FAULTS = [
  withdrawRace, lendRace, borrowRace, cancelRace, repayRace, patchLostUpdate, cursorShift, counterRace, partnerLeak, matchOverfill, staleRead,
  // Sequential money faults (no overlap needed): the model walks catch them.
  withdrawNotDebited, cancelDoubleRefund,
  // Authorization between partners, one cell of the matrix each (conformance/authz/).
  ...OWNER_UNCHECKED, listIgnoresPartner, userUnscoped,
  // Request rules the conformance suite derives from the contract (issue 51): an enum, a parameter, hasMore.
  lendAssetFromCollateral, depthIgnoredBelowDefault, hasMoreOnFullLastPage,
] as const;

/** Every fault the sandbox hosts: the engine's, then the webhook sender's, then the limiter's. */
export const SANDBOX_FAULTS = faultRegistry(...ENGINE_FAULTS, ...SENDER_FAULTS, slowRefill);

/** A sandbox fault's name, as tsc knows it. */
export type SandboxFaultName = NameOf<(typeof SANDBOX_FAULTS.all)[number]>;

/** The engine's faults by name. */
export const FAULTS: ReadonlyMap<string, EngineFault> = new Map(ENGINE_FAULTS.map((f): [string, EngineFault] => [f.name, f]));

/** Endpoint faults, then the webhook sender's, then the limiter's. */
export const faultNames = (): string[] => [...SANDBOX_FAULTS.names];

/** Validates each setting (a known sandbox fault, a config it accepts) before anything starts. */
export const validateFaults = (settings: readonly FaultSetting[]): Installed[] => SANDBOX_FAULTS.validate(settings);

/** The resolvers with every engine fault installed in turn (a later fault wraps an earlier one). */
export function installFaults(settings: readonly FaultSetting[], base: Readonly<Record<string, Resolver>>): Record<string, Resolver | FaultResolver> {
  const out: Record<string, Resolver | FaultResolver> = { ...base };
  for (const { fault, config } of atSeam<EngineFault>(validateFaults(settings), 'engine')) Object.assign(out, fault.install(config, out));
  return out;
}

/** The body parsers the engine faults wrap, by endpoint id (a later fault wraps an earlier one); undefined when none does. */
export function faultParsers(settings: readonly FaultSetting[], profile: Profile): Record<string, BodyParser> | undefined {
  const out: Record<string, BodyParser> = {};
  for (const { fault, config } of atSeam<EngineFault>(validateFaults(settings), 'engine')) {
    for (const [id, wrap] of Object.entries(fault.parsers?.(config, profile) ?? {})) {
      const inner = out[id];
      out[id] = inner ? (json, parse) => wrap(json, (j) => inner(j, parse)) : wrap;
    }
  }
  return Object.keys(out).length ? out : undefined;
}
