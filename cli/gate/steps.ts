import { join } from 'node:path';
import { runConformance, type ConformanceOptions } from '../../conformance/suite/run.ts';
import { skipReasonFor, type Capabilities } from '../../kernel/needs.ts';
import { runContract } from './contract-step.ts';
import type { GateStep, StepContext } from './step-types.ts';
import type { GateTarget, TierName } from './target.ts';
import { loadStep } from './load-step.ts';
import { certifyStep } from './certify-step.ts';
import { chaosStep } from './chaos-step.ts';

// The gate's steps, each registered with what it needs from the target. A step whose
// needs the target lacks is skipped with the reason. Each step imports its part statically
// and builds the part's own options type, so tsc fails when a step and its part disagree.

export type { GateStep, StepContext } from './step-types.ts';

const TIERS_NEEDED: TierName[] = ['starter', 'growth', 'scale'];

/** What the target offers, in the one needs vocabulary (kernel/needs.ts). */
export function capabilitiesOf(t: GateTarget): Capabilities {
  return {
    apiKey: !!t.apiKey,
    secondKey: !!t.apiKey2,
    burstKey: !!t.burstKey,
    missingTierKeys: TIERS_NEEDED.filter((k) => !t.tierKeys[k]),
    sandboxControls: t.hasControls,
  };
}

export function unmetNeeds(step: GateStep, target: GateTarget): string | undefined {
  const reason = skipReasonFor(step.needs, capabilitiesOf(target));
  return reason ? `skipped: ${reason}` : undefined;
}

const contractStep: GateStep = {
  name: 'contract',
  part: 'contract',
  title: "the target's answers and OpenAPI against the contract",
  needs: [],
  run: (ctx) => runContract({ target: ctx.target, profile: ctx.profile }),
};

/** What the conformance part is given: typed against the part, so tsc catches a change on either side. */
export function conformanceOptions(ctx: StepContext): ConformanceOptions {
  const t = ctx.target;
  return {
    baseUrl: t.baseUrl,
    apiKey: t.apiKey,
    apiKey2: t.apiKey2,
    burstKey: t.burstKey,
    tierKeys: t.tierKeys,
    profileFile: ctx.profileFile,
    // Vitest's own console output would break the gate's progress lines; failures come back
    // in the result and the gate prints them.
    reporter: 'none',
    reportDir: join(ctx.runDir, 'conformance'),
  };
}

const conformanceStep: GateStep = {
  name: 'conformance',
  part: 'conformance',
  title: 'conformance suite',
  needs: ['api-key'],
  run: (ctx) => runConformance(conformanceOptions(ctx)),
};

export const GATE_STEPS: GateStep[] = [
  contractStep,
  conformanceStep,
  loadStep,
  chaosStep,
  certifyStep,
];

export const STEP_NAMES = GATE_STEPS.map((s) => s.name);
