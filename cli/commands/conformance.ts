import type { Command } from 'commander';
import { DEFAULT_REPORT_DIR } from '../../reports/writers.ts';
import { runConformance } from '../../conformance/suite/run.ts';
import { TargetUnreachable, UnsafeTargetError } from '../../conformance/target.ts';
import { withSchemathesis } from '../../conformance/schemathesis/target.ts';
import { join } from 'node:path';
import { colorEnabled, paint } from '../../reports/output/color.ts';
import { failedCheckLines } from '../../reports/output/failed-lines.ts';
import { FAILURES_FILE } from '../../reports/repro/failures-file.ts';
import { reportToGithub } from '../../reports/ci/github.ts';
import { createRedactor } from '../../reports/redact.ts';
import { readFileSync } from 'node:fs';
import { DEFAULT_MAX_WAIT_MS } from '../../conformance/budget/budget.ts';

/** Keys from a file: one per line, blank lines and '#' comments ignored. */
export function keysFromFile(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').map((l) => l.replace(/#.*/, '').trim()).filter(Boolean);
}

/** 0 only when every applicable check passed (and at least one did); 3 when nothing failed but checks could not be afforded; 1 otherwise. */
export function exitCodeOf(r: { status: string; figures: Record<string, string | number> }): number {
  if (r.status === 'failed' || Number(r.figures.failed) > 0 || Number(r.figures.passed) === 0) return 1;
  // Checks lendcheck could not afford (rate-limit room, time): not a pass (runner.ts partStatus).
  return r.status === 'incomplete' ? 3 : 0;
}

export function registerConformance(program: Command): void {
  program
    .command('conformance')
    .description('Check every endpoint, error code, pagination and lifecycle rule of a target (the embedded sandbox without --base-url), through Vitest')
    .option('--base-url <url>', 'target base URL ending in /v1 (env LENDCHECK_BASE_URL)')
    .option('--api-key <key>', 'API key of partner 1 (env LENDCHECK_API_KEY); give it again for more keys of partner 1: the rate-limit budget spreads the run over them', (v: string, prev: string[] = []) => [...prev, v])
    .option('--api-keys-file <file>', "more keys of partner 1, one per line ('#' starts a comment)")
    .option('--max-wait <seconds>', 'longest wait for rate-limit room before a check skips, saying what it needed', (v: string) => Number.parseFloat(v), DEFAULT_MAX_WAIT_MS / 1000)
    .option('--api-key-2 <key>', "a second partner's key, for tenancy checks (env LENDCHECK_API_KEY_2)")
    .option('--burst-key <key>', 'a key the suite may exhaust to see a 429 (env LENDCHECK_BURST_KEY)')
    .option('--public-base-url <url>', 'base URL of the public endpoints, when different (env LENDCHECK_PUBLIC_BASE_URL)')
    .option('--profile <file>', 'profile file (JSON) of the "not shown" choices (env LENDCHECK_PROFILE)')
    .option('--strict', 'treat deviations from the profile as failures, not notes')
    .option('--read-only', 'run only GET and public checks (required for a ck_live_ key)')
    .option('--only <ids>', 'comma-separated check ids (a trailing * matches a prefix)', (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .option('--seed <n>', 'seed of the property-based corpus', (v: string) => Number.parseInt(v, 10))
    .option('--report-dir <dir>', 'where junit.xml and conformance.json go', DEFAULT_REPORT_DIR)
    .option('--reporter <name>', 'Vitest console reporter: default, verbose, dot', 'default')
    .option('--with-schemathesis', 'also run Schemathesis (all checks, all phases) with the OpenAPI document of the profile; its result is a part of its own (schemathesis.json, schemathesis-junit.xml)')
    .option('--schemathesis-examples <n>', 'Schemathesis examples per operation (its budget)', (v: string) => Number.parseInt(v, 10), 10)
    .action(async (o: Record<string, unknown>) => {
      try {
        const keys = [...((o.apiKey as string[] | undefined) ?? []), ...(o.apiKeysFile ? keysFromFile(o.apiKeysFile as string) : [])];
        const r = await runConformance({
          baseUrl: o.baseUrl as string | undefined,
          apiKey: keys[0],
          moreApiKeys: keys.slice(1),
          maxWaitMs: Math.max(0, (o.maxWait as number) * 1000),
          apiKey2: o.apiKey2 as string | undefined,
          burstKey: o.burstKey as string | undefined,
          publicBaseUrl: o.publicBaseUrl as string | undefined,
          profileFile: o.profile as string | undefined,
          strict: o.strict as boolean | undefined,
          readOnly: o.readOnly as boolean | undefined,
          only: o.only as string[] | undefined,
          seed: o.seed as number | undefined,
          reportDir: o.reportDir as string,
          reporter: o.reporter as 'default',
        });
        const f = r.figures;
        const p = paint(colorEnabled(process.stdout));
        const status = r.status === 'failed' ? p.red(r.status.toUpperCase()) : r.status === 'passed' ? p.green(r.status.toUpperCase()) : r.status.toUpperCase();
        console.log(`conformance: ${status} — ${f.passed} passed, ${f.failed} failed, ${f.skipped} skipped in ${r.durationMs} ms; ${f.requests} requests${f.rateLimitWaitS ? ` (${f.rateLimitWaitS} s waiting for the rate limit)` : ''}; reports in ${o.reportDir}`);
        const failedLines = failedCheckLines([r], p);
        if (failedLines.length) {
          console.log(`failed checks (reproductions above and in ${join(o.reportDir as string, FAILURES_FILE)}; rerun them with: lendcheck replay ${join(o.reportDir as string, FAILURES_FILE)}):`);
          for (const l of failedLines) console.log(l);
        }
        process.exitCode = exitCodeOf(r);
        reportToGithub({ runId: 'conformance', verdict: r.status === 'failed' ? 'failed' : r.status === 'incomplete' ? 'incomplete' : 'passed', target: r.target ?? '', profile: r.profile ?? '', startedAt: r.startedAt, durationMs: r.durationMs, parts: [r] }, createRedactor([...keys, o.apiKey2, o.burstKey, process.env.LENDCHECK_API_KEY, process.env.LENDCHECK_API_KEY_2, process.env.LENDCHECK_BURST_KEY].filter((k): k is string => typeof k === 'string' && !!k)));
        if (o.withSchemathesis) {
          const st = await withSchemathesis({
            baseUrl: o.baseUrl as string | undefined,
            apiKey: keys[0],
            apiKey2: (o.apiKey2 as string | undefined) ?? process.env.LENDCHECK_API_KEY_2,
            profileFile: o.profile as string | undefined,
            seed: o.seed as number | undefined,
            maxExamples: o.schemathesisExamples as number,
            reportDir: o.reportDir as string,
          });
          const g = st.figures;
          const why = st.status === 'skipped' ? ` (${st.skipReason})` : '';
          console.log(`schemathesis: ${st.status.toUpperCase()}${why} — ${g.cases ?? 0} cases over ${g.operations ?? 0} operations, ${g.failed ?? 0} failed, in ${st.durationMs} ms`);
          if (st.status === 'failed') process.exitCode = 1;
        }
      } catch (e) {
        if (e instanceof TargetUnreachable) {
          console.error(`lendcheck conformance: FAILED — ${e.message}; no check was run`);
          process.exitCode = 1;
          return;
        }
        if (e instanceof UnsafeTargetError) {
          console.error(`lendcheck conformance: ${e.message}`);
          process.exitCode = 2;
          return;
        }
        throw e;
      }
    });
}
