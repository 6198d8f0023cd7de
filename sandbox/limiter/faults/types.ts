import type { z } from 'zod';
import type { LimitRule } from '../gcra.ts';

// A limiter fault: a deliberate bug of the rate limiter (sandbox/limiter/plugin.ts), so the
// suites can be shown to catch it. Same rules as the endpoint faults (sandbox/faults/): one
// small module per fault, registered by name, a zod config whose every field has a default,
// never on unless a test or an explicit `lendcheck sandbox --fault NAME` asks for it. A limiter
// fault wraps no resolver: it turns the rule the headers state into the rule actually enforced.

export interface LimitFaultModule<S extends z.ZodTypeAny = z.ZodTypeAny> {
  readonly name: string;
  readonly description: string;
  readonly breaks: string;
  readonly config: S;
  /** The rule the limiter enforces, given the one its X-RateLimit-* headers state. */
  enforced(config: z.infer<S>, stated: LimitRule): LimitRule;
}

/** A validated setting: the module and the config it accepted. */
export interface LimitFaultSetting {
  module: LimitFaultModule;
  config: unknown;
}
