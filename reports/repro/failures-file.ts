import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { reproduction, type PartResult, type RunSummary } from '../../kernel/results.ts';

// failures.json: what a run needs to be run again, check by check: each failed check with its
// part, requirement ids, message and reproduction, and how the run was made (the seed, the
// profile file, strict or not, the target unless it was the embedded sandbox). No key: replay
// takes them from its flags or the environment, as every command does.

export const FAILURES_FILE = 'failures.json';

export const replayMeta = z.object({
  /** The target's base URL; absent when the run started its own embedded sandbox. */
  baseUrl: z.string().optional(),
  publicBaseUrl: z.string().optional(),
  /** Absolute path of the profile file the run used, when one was given. */
  profileFile: z.string().optional(),
  seed: z.number().optional(),
  strict: z.boolean().default(false),
  readOnly: z.boolean().default(false),
  /** Salted fingerprints of the keys the run was given (fingerprint.ts), never the keys: replay says "fixed" only with the same. */
  credentials: z.object({ salt: z.string(), keys: z.record(z.string(), z.string()) }).optional(),
});
export type ReplayMeta = z.infer<typeof replayMeta>;

export const failedCheck = z.object({
  part: z.string(),
  id: z.string(),
  title: z.string(),
  requirements: z.array(z.string()).default([]),
  message: z.string().optional(),
  reproduction: reproduction.optional(),
});
export type FailedCheck = z.infer<typeof failedCheck>;

export const failuresFile = z.object({
  kind: z.literal('lendcheck-failures'),
  version: z.literal(1),
  runId: z.string(),
  target: z.string(),
  profile: z.string(),
  startedAt: z.string(),
  run: replayMeta,
  failures: z.array(failedCheck),
});
export type FailuresFile = z.infer<typeof failuresFile>;

/** Seed and strictness as the conformance part recorded them, when the caller did not know them. */
function fromFigures(parts: PartResult[]): Partial<ReplayMeta> {
  const conf = parts.find((p) => p.part === 'conformance');
  const seed = Number(conf?.figures.seed);
  return { ...(Number.isFinite(seed) ? { seed } : {}), ...(conf?.figures.strict === 'yes' ? { strict: true } : {}) };
}

export function failuresOf(s: Pick<RunSummary, 'runId' | 'target' | 'profile' | 'startedAt' | 'parts'>, meta: Partial<ReplayMeta> = {}): FailuresFile {
  return {
    kind: 'lendcheck-failures',
    version: 1,
    runId: s.runId,
    target: s.target,
    profile: s.profile,
    startedAt: s.startedAt,
    run: replayMeta.parse({ ...fromFigures(s.parts), ...meta }),
    failures: s.parts.flatMap((p) =>
      p.checks
        .filter((c) => c.status === 'failed')
        .map((c) => ({ part: p.part, id: c.id, title: c.title, requirements: c.requirements, ...(c.message ? { message: c.message } : {}), ...(c.reproduction ? { reproduction: c.reproduction } : {}) })),
    ),
  };
}

/** Writes failures.json through a report sink (so through the one redactor); returns its path. */
export function writeFailuresFile(ctx: { write(name: string, text: string): string; redactor: { value<T>(v: T): T } }, s: Parameters<typeof failuresOf>[0], meta: Partial<ReplayMeta> = {}): string {
  return ctx.write(FAILURES_FILE, JSON.stringify(ctx.redactor.value(failuresOf(s, meta)), null, 2) + '\n');
}

export function readFailuresFile(file: string): FailuresFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read ${file}: ${(e as Error).message}`);
  }
  const p = failuresFile.safeParse(raw);
  if (!p.success) throw new Error(`${file} is not a lendcheck failures file: ${p.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  return p.data;
}
