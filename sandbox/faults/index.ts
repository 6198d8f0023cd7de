// Importing this module registers every fault the sandbox hosts (faults/, the one registry), at
// its three seams: the engine's resolvers (this folder), the webhook sender
// (sandbox/webhooks/faults/) and the limiter (sandbox/limiter/faults/). None is ever on by
// default: a sandbox gets faults only from SandboxOptions.faults (tests) or from an explicit
// `lendcheck sandbox --fault <name>[,<name>]`. Add a fault as its own module and import it here.
import './withdraw-race.ts';
import './lend-race.ts';
import './borrow-race.ts';
import './cancel-race.ts';
import './repay-race.ts';
import './patch-lost-update.ts';
import './cursor-shift.ts';
import './counter-race.ts';
import './partner-leak.ts';
import './match-overfill.ts';
import './stale-read.ts';
// Sequential money faults (no overlap needed): the model walks catch them.
import './withdraw-not-debited.ts';
import './cancel-double-refund.ts';
// Authorization between partners, one cell of the matrix each (conformance/authz/).
import './owner-unchecked.ts';
import './list-ignores-partner.ts';
import './user-unscoped.ts';
// Request rules the conformance suite derives from the contract (issue 51): an enum, a parameter, hasMore.
import './lend-asset-from-collateral.ts';
import './depth-ignored-below-default.ts';
import './hasmore-on-full-last-page.ts';
import '../webhooks/faults/index.ts';
import '../limiter/faults/index.ts';
import { atSeam, faultNames as namesAt, faultsAt, validateFaults as validateAt, type FaultSetting, type Installed, type Seam } from '../../faults/index.ts';
import type { Resolver } from '../endpoints/resolvers.ts';
import type { Profile } from '../../contract/index.ts';
import type { BodyParser, EngineFault, FaultResolver } from './fault.ts';

export type { FaultSetting } from '../../faults/index.ts';
export { parseFaultFlag } from '../../faults/index.ts';
export type { EngineFault } from './fault.ts';

/** The seams the sandbox installs faults through. */
export const SANDBOX_SEAMS: readonly Seam[] = ['engine', 'webhook-sender', 'limiter'];

/** The engine's faults by name. */
export const FAULTS: ReadonlyMap<string, EngineFault> = new Map(faultsAt<EngineFault>(['engine']).map((f) => [f.name, f]));

/** Endpoint faults, then the webhook sender's, then the limiter's. */
export const faultNames = (): string[] => namesAt(SANDBOX_SEAMS);

/** Validates each setting (a known sandbox fault, a config it accepts) before anything starts. */
export const validateFaults = (settings: readonly FaultSetting[]): Installed[] => validateAt(settings, SANDBOX_SEAMS);

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
