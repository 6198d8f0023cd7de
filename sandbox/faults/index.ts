import type { Resolver } from '../endpoints/resolvers.ts';
import { borrowRace } from './borrow-race.ts';
import { cancelRace } from './cancel-race.ts';
import { counterRace } from './counter-race.ts';
import { cursorShift } from './cursor-shift.ts';
import type { FaultModule, FaultResolver, FaultSetting } from './fault.ts';
import { lendRace } from './lend-race.ts';
import { matchOverfill } from './match-overfill.ts';
import { partnerLeak } from './partner-leak.ts';
import { listIgnoresPartner } from './list-ignores-partner.ts';
import { OWNER_UNCHECKED } from './owner-unchecked.ts';
import { userUnscoped } from './user-unscoped.ts';
import { patchLostUpdate } from './patch-lost-update.ts';
import { repayRace } from './repay-race.ts';
import { staleRead } from './stale-read.ts';
import { withdrawNotDebited } from './withdraw-not-debited.ts';
import { withdrawRace } from './withdraw-race.ts';
import { cancelDoubleRefund } from './cancel-double-refund.ts';
import { HOOK_FAULTS, type HookFaultSetting } from '../webhooks/faults/index.ts';
import { LIMIT_FAULTS, type LimitFaultSetting } from '../limiter/faults/index.ts';

// The fault registry: every deliberate bug the sandbox can be given, by name. None is ever on
// by default: a sandbox gets faults only from SandboxOptions.faults (tests) or from an explicit
// `lendcheck sandbox --fault <name>[,<name>]`. Add a fault as its own module and list it here.

export type { FaultModule, FaultSetting } from './fault.ts';

const MODULES: FaultModule[] = [
  withdrawRace,
  lendRace,
  borrowRace,
  cancelRace,
  repayRace,
  patchLostUpdate,
  cursorShift,
  counterRace,
  partnerLeak,
  matchOverfill,
  staleRead,
  // Sequential money faults (no overlap needed): the model walks catch them.
  withdrawNotDebited,
  cancelDoubleRefund,
  // Authorization between partners, one cell of the matrix each (conformance/authz/).
  ...OWNER_UNCHECKED,
  listIgnoresPartner,
  userUnscoped,
];

export const FAULTS: ReadonlyMap<string, FaultModule> = new Map(MODULES.map((m) => [m.name, m]));

/** Endpoint faults, then the webhook sender's (sandbox/webhooks/faults/), then the limiter's (sandbox/limiter/faults/). */
export const faultNames = (): string[] => [...FAULTS.keys(), ...HOOK_FAULTS.keys(), ...LIMIT_FAULTS.keys()];

/** Validates each setting (a known name, a config its module accepts) before anything starts. */
export function validateFaults(settings: readonly FaultSetting[]): Array<{ module: FaultModule | HookFaultSetting['module'] | LimitFaultSetting['module']; config: unknown }> {
  return settings.map((s) => {
    const module = FAULTS.get(s.name) ?? HOOK_FAULTS.get(s.name) ?? LIMIT_FAULTS.get(s.name);
    if (!module) throw new Error(`unknown fault ${JSON.stringify(s.name)}; faults are ${faultNames().join(', ')}`);
    const parsed = module.config.safeParse(s.config ?? {});
    if (!parsed.success) {
      throw new Error(`fault ${s.name}: bad config: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
    }
    return { module, config: parsed.data };
  });
}

/** The resolvers with every fault installed in turn (a later fault wraps an earlier one). */
export function installFaults(settings: readonly FaultSetting[], base: Readonly<Record<string, Resolver>>): Record<string, Resolver | FaultResolver> {
  const out: Record<string, Resolver | FaultResolver> = { ...base };
  for (const { module, config } of validateFaults(settings)) if ('install' in module) Object.assign(out, module.install(config, out));
  return out;
}

/** The webhook sender's faults among the settings, validated; the dispatcher applies them. */
export function hookFaults(settings: readonly FaultSetting[]): HookFaultSetting[] {
  return validateFaults(settings).filter((v): v is HookFaultSetting => 'effects' in v.module);
}

/** The rate limiter's faults among the settings, validated; the limiter applies them. */
export function limitFaults(settings: readonly FaultSetting[]): LimitFaultSetting[] {
  return validateFaults(settings).filter((v): v is LimitFaultSetting => 'enforced' in v.module);
}

/**
 * The `--fault` flag: names separated by commas, each optionally with `:key=value` settings
 * joined by `;` (numbers and booleans as such), e.g. `withdraw-race:gapMs=10,cursor-shift`.
 */
export function parseFaultFlag(flag: string): FaultSetting[] {
  return flag
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [name, rest] = s.split(/:(.*)/s, 2) as [string, string | undefined];
      if (rest === undefined) return { name };
      const config: Record<string, unknown> = {};
      for (const kv of rest.split(';').filter(Boolean)) {
        const [k, v] = kv.split('=', 2) as [string, string | undefined];
        if (v === undefined) throw new Error(`fault ${name}: setting ${JSON.stringify(kv)} is not key=value`);
        config[k] = v === 'true' ? true : v === 'false' ? false : /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
      }
      return { name, config };
    });
}
