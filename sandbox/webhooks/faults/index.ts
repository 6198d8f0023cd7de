import './cross-partner.ts';
import './unsubscribed-types.ts';
import './matched-one-side.ts';
import './sender-timeout.ts';
import './new-id-per-retry.ts';
import './early-retry.ts';
import './no-retries.ts';
import './resigned-body.ts';
import './webhook-owner.ts';
import { atSeam, faultsAt, type Installed } from '../../../faults/index.ts';
import type { HookFault, HookFaultEffects, HookFaultEnv } from './types.ts';

// The webhook sender's faults: importing this module registers them (faults/) at the
// 'webhook-sender' seam. None is ever on by default.

export type { HookFault, HookFaultEffects } from './types.ts';

/** The sender's faults by name (registration order). */
export const HOOK_FAULTS: ReadonlyMap<string, HookFault> = new Map(faultsAt<HookFault>(['webhook-sender']).map((f) => [f.name, f]));

/** Validated settings of sender faults: each a fault and the config it accepted. */
export type HookFaultSetting = Installed<HookFault>;

/** The sender's faults among a sandbox's validated settings (SandboxContext.faults). */
export const senderFaults = (all: readonly Installed[] = []): HookFaultSetting[] => atSeam<HookFault>(all, 'webhook-sender');

/**
 * The effects of every fault given, merged; a later fault's seam wins where two use the same
 * one (two routing bugs at once are not a case the proofs need).
 */
export function hookFaultEffects(settings: readonly HookFaultSetting[], env: HookFaultEnv): HookFaultEffects {
  const out: HookFaultEffects = {};
  for (const { fault, config } of settings) Object.assign(out, fault.install(config, env));
  return out;
}
