import { afterAll, describe, inject, it } from 'vitest';
import { loadProfile } from '../../contract/index.ts';
import { runOptionsFor, startEmbedded, type EmbeddedTarget } from '../embedded.ts';
import { replayMeta, writeReports } from '../report.ts';
import { CHECK_DEADLINE_MS, executeCheck, finishRun, prepareRun } from '../runner.ts';
import { assertSafe } from '../target.ts';
import { createRedactor } from '../../reports/redact.ts';
import { leaveResult, TARGET_KEY } from './channel.ts';
import { checkFailed } from './failure-error.ts';

// The conformance suite as Vitest sees it: one test per check, in run order. The target is
// the one runConformance resolved from the command's flags and the environment, provided as
// one object (channel.ts): the worker never reads LENDCHECK_* itself. Without a base URL the
// embedded sandbox is started. The run's result goes back on the file's meta.

const target = inject(TARGET_KEY);
if (!target) throw new Error('the conformance suite runs through `lendcheck conformance` (runConformance), which provides its target');
assertSafe(target);
const profile = loadProfile(target.profileFile);
const embedded: EmbeddedTarget | undefined = target.baseUrl ? undefined : await startEmbedded(profile);
const run = await prepareRun(runOptionsFor(target, profile, embedded));
const redactor = createRedactor([run.opts.apiKey, run.opts.apiKey2 ?? '', run.opts.burstKey ?? '']);

describe(`conformance of ${run.opts.targetLabel}`, () => {
  for (const item of run.plan) {
    // The check's own deadline (runner.ts) stops it; waits for rate-limit room do not count
    // against that deadline, each bounded by --max-wait, so Vitest's backstop leaves room for them.
    it(`${item.check.id}: ${item.check.title}`, { timeout: CHECK_DEADLINE_MS + 30 * 60_000 }, async (t) => {
      const r = await executeCheck(run, item);
      for (const n of r.notes) await t.annotate(n, 'note');
      // Advice is said, never failed (issue 47): an annotation, like a note.
      for (const a of r.advisories ?? []) await t.annotate(`advice [${a.requirement ?? `profile ${a.profile ?? ''}`}]: expected ${a.expected} / received ${a.received}${a.evidence ? ` (${a.evidence})` : ''}`, 'advice');
      if (r.status === 'skipped') t.skip(`skipped: ${r.message}`);
      if (r.status === 'failed') throw checkFailed(r, redactor);
    });
  }
});

// Vitest reads a hook's first argument as its fixtures (an object pattern); the second is the file task.
afterAll(async ({}, file) => {
  try {
    const result = finishRun(run);
    leaveResult(file.meta, result);
    if (target.reportDir) writeReports(result, target.reportDir, [run.opts.apiKey, run.opts.apiKey2 ?? '', run.opts.burstKey ?? ''], replayMeta(target, embedded));
  } finally {
    await run.close();
    await embedded?.close();
  }
});
