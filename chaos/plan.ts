import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { EVENT_TYPES } from '../contract/index.ts';
import { seeded } from '../faults/index.ts';
import { faultNames, getFault, type FaultDef } from './faults/index.ts';

// A fault plan maps event types and attempt numbers to faults, e.g.
// {"rules":[{"events":["position.matched"],"attempts":{"from":1,"to":6},"fault":"status","config":{"status":503}}]}
// = "fail attempts 1–6 of every position.matched". The first rule that selects an attempt
// and wins its probability roll applies; an attempt no rule takes gets 200.

const attemptRange = z
  .object({ from: z.number().int().min(1), to: z.number().int().min(1) })
  .refine((r) => r.to >= r.from, { message: 'attempts.to must be ≥ attempts.from' });

export const planRule = z
  .object({
    name: z.string().optional(),
    events: z.union([z.literal('*'), z.array(z.string().min(1)).min(1)]).default('*'),
    attempts: z.union([z.literal('all'), z.array(z.number().int().min(1)).min(1), attemptRange]).default('all'),
    fault: z.string().min(1),
    config: z.unknown().optional(),
    /** The rule's toxicity (faults/http.ts): the share of the attempts it selects that the fault takes, drawn from the plan's seed. */
    probability: z.number().min(0).max(1).default(1),
  })
  .superRefine((rule, ctx) => {
    const def = getFault(rule.fault);
    if (!def) {
      ctx.addIssue({ code: 'custom', path: ['fault'], message: `unknown fault "${rule.fault}"; known: ${faultNames().join(', ')}` });
      return;
    }
    const r = def.config.safeParse(rule.config ?? {});
    if (!r.success) for (const i of r.error.issues) ctx.addIssue({ code: 'custom', path: ['config', ...(i.path as (string | number)[])], message: i.message });
    if (Array.isArray(rule.events))
      for (const [k, e] of rule.events.entries())
        if (!(EVENT_TYPES as readonly string[]).includes(e)) ctx.addIssue({ code: 'custom', path: ['events', k], message: `unknown event type "${e}"` });
  });

export const planSchema = z.object({
  name: z.string().default('plan'),
  /** Seed of the probability rolls, so a run can be repeated. */
  seed: z.number().int().default(1),
  rules: z.array(planRule).default([]),
});
export type PlanInput = z.input<typeof planSchema>;

export interface Chosen {
  rule: string;
  def: FaultDef;
  config: unknown;
}

export interface Plan {
  name: string;
  choose(eventType: string | null, attempt: number): Chosen | null;
}

function selects(rule: z.infer<typeof planRule>, eventType: string | null, attempt: number): boolean {
  if (rule.events !== '*' && (eventType === null || !rule.events.includes(eventType))) return false;
  if (rule.attempts === 'all') return true;
  if (Array.isArray(rule.attempts)) return rule.attempts.includes(attempt);
  return attempt >= rule.attempts.from && attempt <= rule.attempts.to;
}

export function parsePlan(input: unknown): Plan {
  const r = planSchema.safeParse(input ?? {});
  if (!r.success) throw new Error(`invalid fault plan: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  const p = r.data;
  const rand = seeded(p.seed);
  const rules = p.rules.map((rule, i) => ({ rule, def: getFault(rule.fault)!, config: getFault(rule.fault)!.config.parse(rule.config ?? {}), label: rule.name ?? `rule ${i + 1}: ${rule.fault}` }));
  return {
    name: p.name,
    choose(eventType, attempt) {
      for (const r of rules) {
        if (!selects(r.rule, eventType, attempt)) continue;
        if (r.rule.probability < 1 && rand() >= r.rule.probability) continue;
        return { rule: r.label, def: r.def, config: r.config };
      }
      return null;
    },
  };
}

export function loadPlan(file: string): Plan {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read fault plan ${file}: ${(e as Error).message}`);
  }
  return parsePlan(raw);
}

export const EMPTY_PLAN: Plan = parsePlan({ name: 'none' });
