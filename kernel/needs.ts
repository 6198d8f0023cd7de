// The one vocabulary of what a check or a gate step needs from the target or the run.
// Conformance checks, certify checks, validate checks and the gate's steps all name their
// needs with these words; an unmet need skips with the reason written here, so the same
// lack reads the same everywhere.

export const NEEDS = ['api-key', 'second-key', 'burst-key', 'tier-keys', 'sandbox-controls', 'write', 'burst', 'receiver-source'] as const;
export type Need = (typeof NEEDS)[number];

/** What a run has; a field left out is not known to be there, so its need is unmet. */
export interface Capabilities {
  apiKey?: boolean;
  secondKey?: boolean;
  burstKey?: boolean;
  /** Tiers without a key; empty when every tier has one. */
  missingTierKeys?: readonly string[];
  sandboxControls?: boolean;
  /** A read-only run sends nothing that changes state and no burst. */
  readOnly?: boolean;
  /** Receiver source files given for inspection. */
  receiverSource?: boolean;
}

const REASONS: Record<Need, (c: Capabilities) => string | undefined> = {
  'api-key': (c) => (c.apiKey ? undefined : 'no API key given (--api-key or LENDCHECK_API_KEY)'),
  'second-key': (c) => (c.secondKey ? undefined : 'no second partner key given (--api-key-2 / LENDCHECK_API_KEY_2)'),
  'burst-key': (c) => (c.burstKey ? undefined : 'no dedicated key to exhaust given (--burst-key / LENDCHECK_BURST_KEY); bursting the main key would starve the other checks'),
  'tier-keys': (c) => {
    const missing = c.missingTierKeys ?? ['starter', 'growth', 'scale'];
    return missing.length ? `no key for tier ${missing.join(', ')} (--key-${missing[0]} or LENDCHECK_KEY_${missing[0].toUpperCase()})` : undefined;
  },
  'sandbox-controls': (c) =>
    c.sandboxControls ? undefined : 'the target has no sandbox controls (GET /v1/sandbox/clock did not answer 200), so funds, matching and time cannot be driven',
  write: (c) => (c.readOnly === false ? undefined : 'read-only run: this check sends requests that change state (POST/PATCH)'),
  burst: (c) => (c.readOnly === false ? undefined : 'read-only run: no bursts against a service that may be live'),
  'receiver-source': (c) => (c.receiverSource ? undefined : 'no --source given: a non-constant-time compare cannot be observed over the network'),
};

/** Why each unmet need is unmet, in the order asked. */
export function unmetNeeds(needs: readonly Need[], have: Capabilities): string[] {
  return needs.map((n) => REASONS[n](have)).filter((r): r is string => r !== undefined);
}

/**
 * The kind of skip unmet needs make (kernel/results.ts skipKind): the target lacking sandbox
 * controls (which the spec does not require) is the target's; anything else the run was not given.
 */
export function skipKindFor(needs: readonly Need[], have: Capabilities): 'target-lacks' | 'run-lacks' | undefined {
  const unmet = needs.filter((n) => REASONS[n](have) !== undefined);
  if (!unmet.length) return undefined;
  return unmet.every((n) => n === 'sandbox-controls') ? 'target-lacks' : 'run-lacks';
}

/** The skip reason for a check or step with these needs, or undefined when all are met. */
export function skipReasonFor(needs: readonly Need[], have: Capabilities): string | undefined {
  const reasons = unmetNeeds(needs, have);
  return reasons.length ? reasons.join('; ') : undefined;
}
