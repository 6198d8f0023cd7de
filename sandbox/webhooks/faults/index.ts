import { atSeam, type Installed } from '../../../faults/index.ts';
import { crossPartner } from './cross-partner.ts';
import { earlyRetry } from './early-retry.ts';
import { matchedOneSide } from './matched-one-side.ts';
import { newIdPerRetry } from './new-id-per-retry.ts';
import { noRetries } from './no-retries.ts';
import { resignedBody } from './resigned-body.ts';
import { senderTimeout } from './sender-timeout.ts';
import { unsubscribedTypes } from './unsubscribed-types.ts';
import { webhookDeleteUnchecked, webhookListIgnoresPartner } from './webhook-owner.ts';
import type { HookFault, HookFaultEffects, HookFaultEnv, SenderFault } from './types.ts';

// The webhook sender's faults, in the order the sandbox's one registry (sandbox/faults/index.ts)
// lists them. None is ever on by default.

export type { HookFault, HookFaultEffects, SenderEnv, SenderFault } from './types.ts';

/** The sender's faults, in order. */
export const SENDER_FAULTS = [crossPartner, unsubscribedTypes, matchedOneSide, senderTimeout, newIdPerRetry, earlyRetry, noRetries, resignedBody, webhookListIgnoresPartner, webhookDeleteUnchecked] as const;

/** The sender's faults by name, of both its seams. */
export const HOOK_FAULTS: ReadonlyMap<string, HookFault | SenderFault> = new Map(SENDER_FAULTS.map((f): [string, HookFault | SenderFault] => [f.name, f]));

/** Validated settings of the sender's logic faults: each a fault and the config it accepted. */
export type HookFaultSetting = Installed<HookFault>;

/** The sender's logic faults among a sandbox's validated settings (SandboxContext.faults). */
export const senderFaults = (all: readonly Installed[] = []): HookFaultSetting[] => atSeam<HookFault>(all, 'webhook-logic');

/** The sender's wire faults (toxics) among a sandbox's validated settings, for its door (../toxic-door.ts). */
export const wireSettings = (all: readonly Installed[] = []): Array<Installed<SenderFault>> => atSeam<SenderFault>(all, 'webhook-sender');

/**
 * The effects of every fault given, merged; a later fault's seam wins where two use the same
 * one (two routing bugs at once are not a case the proofs need).
 */
export function hookFaultEffects(settings: readonly HookFaultSetting[], env: HookFaultEnv): HookFaultEffects {
  const out: HookFaultEffects = {};
  for (const { fault, config } of settings) Object.assign(out, fault.install(config, env));
  return out;
}
