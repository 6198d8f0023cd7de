import { crossPartner } from './cross-partner.ts';
import { earlyRetry } from './early-retry.ts';
import { matchedOneSide } from './matched-one-side.ts';
import { newIdPerRetry } from './new-id-per-retry.ts';
import { noRetries } from './no-retries.ts';
import { resignedBody } from './resigned-body.ts';
import { senderTimeout } from './sender-timeout.ts';
import type { HookFaultEffects, HookFaultEnv, HookFaultModule } from './types.ts';
import { unsubscribedTypes } from './unsubscribed-types.ts';
import { webhookDeleteUnchecked, webhookListIgnoresPartner } from './webhook-owner.ts';

// The webhook-sender faults by name. They share the `--fault` flag and SandboxOptions.faults
// with the endpoint faults (sandbox/faults/index.ts sends each name to its registry); none is
// ever on by default.

export type { HookFaultEffects, HookFaultModule } from './types.ts';

const MODULES: HookFaultModule[] = [crossPartner, unsubscribedTypes, matchedOneSide, senderTimeout, newIdPerRetry, earlyRetry, noRetries, resignedBody, webhookListIgnoresPartner, webhookDeleteUnchecked];

export const HOOK_FAULTS: ReadonlyMap<string, HookFaultModule> = new Map(MODULES.map((m) => [m.name, m]));

/** Validated settings of sender faults: each a module and the config it accepted. */
export interface HookFaultSetting {
  module: HookFaultModule;
  config: unknown;
}

/**
 * The effects of every fault given, merged; a later fault's seam wins where two use the same
 * one (two routing bugs at once are not a case the proofs need).
 */
export function hookFaultEffects(settings: readonly HookFaultSetting[], env: HookFaultEnv): HookFaultEffects {
  const out: HookFaultEffects = {};
  for (const { module, config } of settings) Object.assign(out, module.effects(config, env));
  return out;
}
