import type { Profile } from '../../contract/index.ts';
import type { Need } from '../../kernel/needs.ts';
import type { PartResult } from '../../kernel/results.ts';
import type { GateTarget } from './target.ts';

// What a gate step is and what it is given, apart from the list of steps (steps.ts), which
// imports every step file: each step file imports these types from here, not from the list.

export interface StepContext {
  profile: Profile;
  profileFile?: string;
  target: GateTarget;
  /** The run's report directory (<report-dir>/<run-id>), for parts that keep raw output. */
  runDir: string;
  /** Progress lines from inside a part; redacted before they are shown. */
  log(line: string): void;
}

export interface GateStep {
  name: string;
  part: PartResult['part'];
  title: string;
  needs: Need[];
  run(ctx: StepContext): Promise<PartResult>;
  /**
   * True when this run of the step shares nothing with the others (its own sandbox, keys
   * and clock): the gate starts it at once and runs the other steps meanwhile, and its
   * result still takes its place in the order. Mostly waiting (a time-scaled schedule).
   */
  alongside?(ctx: StepContext): boolean;
}
