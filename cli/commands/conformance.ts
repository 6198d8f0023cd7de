import type { Command } from 'commander';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { EXIT, InputError } from '../exit-codes.ts';
import type { GivenKey } from '../preflight/preflight.ts';
import type { TargetOptions } from '../../conformance/target.ts';
import { selfCommand } from '../../kernel/self-command.ts';
import { CONFORMANCE_PLANS, DEFAULT_MAX_WAIT_S, DEFAULT_REPORT_DIR, SIGNATURE_SCHEME_FORMS } from './option-values.ts';

/** Keys from a file: one per line, blank lines and '#' comments ignored. */
export function keysFromFile(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').map((l) => l.replace(/#.*/, '').trim()).filter(Boolean);
}

/** The one exit-code table: 1 on any failure; 3 when nothing was observed to pass (all skipped) or the part is incomplete; else 0. */
export function exitCodeOf(r: { status: string; figures: Record<string, string | number> }): number {
  if (r.status === 'failed' || Number(r.figures.failed) > 0) return EXIT.fail;
  if (r.status === 'incomplete' || r.status === 'skipped' || Number(r.figures.passed) === 0) return EXIT.incomplete;
  return EXIT.pass;
}

/** The run's keys as resolved once (flags over LENDCHECK_*), each named by the option (or variable) that carried it. */
function givenKeys(o: Record<string, unknown>, fileKeys: string[], t: TargetOptions): GivenKey[] {
  const opt = (o.apiKey as string[] | undefined) ?? [];
  const from = (flag: string, value: unknown, variable: string) => (value !== undefined ? flag : variable);
  return [
    ...opt.map((key, i) => ({ option: opt.length > 1 ? `--api-key (${i + 1} of ${opt.length})` : '--api-key', key })),
    // Without --api-key the first key of a file is the main key; without either, the variable's.
    ...(opt.length || fileKeys.length ? [] : [{ option: 'LENDCHECK_API_KEY', key: t.apiKey }]),
    ...fileKeys.map((key, i) => ({ option: `--api-keys-file (key ${i + 1})`, key })),
    { option: from('--api-key-2', o.apiKey2, 'LENDCHECK_API_KEY_2'), key: t.apiKey2 },
    { option: from('--burst-key', o.burstKey, 'LENDCHECK_BURST_KEY'), key: t.burstKey },
  ];
}

export function registerConformance(program: Command): void {
  program
    .command('conformance')
    .description('Check every endpoint, error code, pagination and lifecycle rule of a target (the embedded sandbox without --base-url), through Vitest')
    .option('--base-url <url>', 'target base URL ending in /v1 (env LENDCHECK_BASE_URL)')
    .option('--api-key <key>', 'API key of partner 1 (env LENDCHECK_API_KEY); give it again for more keys of partner 1: the rate-limit budget spreads the run over them', (v: string, prev: string[] = []) => [...prev, v])
    .option('--api-keys-file <file>', "more keys of partner 1, one per line ('#' starts a comment)")
    .option('--max-wait <seconds>', 'longest wait for rate-limit room before a check skips, saying what it needed', (v: string) => Number.parseFloat(v), DEFAULT_MAX_WAIT_S)
    .option('--api-key-2 <key>', "a second partner's key, for tenancy checks (env LENDCHECK_API_KEY_2)")
    .option('--burst-key <key>', 'a key the suite may exhaust to see a 429 (env LENDCHECK_BURST_KEY)')
    .option('--public-base-url <url>', 'base URL of the public endpoints, when different (env LENDCHECK_PUBLIC_BASE_URL)')
    .option('--profile <file>', 'profile file (JSON) of the "not shown" choices (env LENDCHECK_PROFILE)')
    .option('--strict', 'treat deviations from the profile as failures, not notes')
    .option('--signature-scheme <name>', `the webhook signature scheme the target uses (part 6 leaves it open), over the profile's: ${SIGNATURE_SCHEME_FORMS}`)
    .option('--read-only', 'run only GET and public checks (required for a ck_live_ key)')
    .option('--only <ids>', 'comma-separated check ids (a trailing * matches a prefix)', (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .option('--plan <name>', `run plan: ${CONFORMANCE_PLANS.map(([n, about]) => `${n} (${about})`).join('; ')}`, 'full')
    .option('--seed <n>', 'seed of the property-based corpus', (v: string) => Number.parseInt(v, 10))
    .option('--report-dir <dir>', 'where junit.xml and conformance.json go', DEFAULT_REPORT_DIR)
    .option('--reporter <name>', "Vitest console reporter: default, verbose, dot (default: none, lendcheck's own lines; default with --verbose)")
    .option('--verbose', "Vitest's own output too (its banner, each test)")
    .option('--with-schemathesis', 'also run Schemathesis (all checks, all phases) with the OpenAPI document of the profile; its result is a part of its own (schemathesis.json, schemathesis-junit.xml)')
    .option('--schemathesis-examples <n>', 'Schemathesis examples per operation (its budget)', (v: string) => Number.parseInt(v, 10), 10)
    .action(async (o: Record<string, unknown>) => {
      // The parts load here, when the command runs (never for --help or a mistyped flag).
      const { resolveTarget, TargetUnreachable, UnsafeTargetError } = await import('../../conformance/target.ts');
      const { loadProfile } = await import('../../contract/index.ts');
      const { preflight } = await import('../preflight/preflight.ts');
      const { runConformance } = await import('../../conformance/suite/run.ts');
      const { colorEnabled, paint } = await import('../../reports/output/color.ts');
      const { failedCheckBlocks, failedCheckLines } = await import('../../reports/output/failed-lines.ts');
      const { advisoryLines } = await import('../../reports/output/advisory-lines.ts');
      const { FAILURES_FILE } = await import('../../reports/repro/failures-file.ts');
      const { reportToGithub } = await import('../../reports/ci/github.ts');
      const { createRedactor } = await import('../../reports/redact.ts');
      const { skipLines } = await import('../output/skips.ts');
      const { planNamed } = await import('../../conformance/plans.ts');
      try {
        // The run plan, resolved once: flags over LENDCHECK_*. The preflight, the suite (through
        // runConformance, which takes it as it is), the redactor and Schemathesis all read this one.
        const fileKeys = o.apiKeysFile ? keysFromFile(o.apiKeysFile as string) : [];
        const keys = [...((o.apiKey as string[] | undefined) ?? []), ...fileKeys];
        let target = resolveTarget({
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
          plan: o.plan as string,
          seed: o.seed as number | undefined,
          reportDir: o.reportDir as string,
        });
        if (typeof o.signatureScheme === 'string') {
          // The suite loads the profile from its file: the named scheme goes into a file of its own (cli/signature-scheme.ts).
          const { profileFileWithScheme, signatureSchemeOption } = await import('../signature-scheme.ts');
          target = { ...target, profileFile: profileFileWithScheme(signatureSchemeOption(o.signatureScheme), target.profileFile, o.reportDir as string) };
        }
        // A bad profile file is the user's mistake: one line here, not a failed Vitest suite.
        const profile = loadProfile(target.profileFile);
        try {
          planNamed(target.plan);
        } catch (e) {
          throw new InputError((e as Error).message);
        }
        const baseUrl = target.baseUrl;
        const named = givenKeys(o, fileKeys, target);
        // No --base-url: the embedded sandbox checks a given key as any target would (cli/preflight/embedded.ts).
        if (!baseUrl) await (await import('../preflight/embedded.ts')).checkKeysOnEmbedded(named, { profile });
        if (baseUrl) await preflight({ baseUrl, publicBaseUrl: target.publicBaseUrl, keys: named, allowLive: !!target.readOnly, liveOption: '--read-only' });
        const r = await runConformance({ ...target, reporter: ((o.reporter as string | undefined) ?? (o.verbose ? 'default' : 'none')) as 'default' });
        const f = r.figures;
        const p = paint(colorEnabled(process.stdout));
        const status = r.status === 'failed' ? p.red(r.status.toUpperCase()) : r.status === 'passed' ? p.green(r.status.toUpperCase()) : r.status.toUpperCase();
        console.log(`conformance: ${status} — ${f.passed} passed, ${f.failed} failed, ${f.skipped} skipped in ${r.durationMs} ms; ${f.requests} requests${f.rateLimitWaitS ? ` (${f.rateLimitWaitS} s waiting for the rate limit)` : ''}; reports in ${o.reportDir}`);
        for (const l of skipLines(r)) console.log(l);
        const plan = planNamed(target.plan);
        const { budgetLines } = await import('../output/budget-lines.ts');
        // The runner names what the plan left out; the console says it by family.
        for (const l of budgetLines(r, plan, r.leftOut)) console.log(l);
        const failedLines = failedCheckLines([r], p);
        if (failedLines.length) {
          console.log(`failed checks (reproductions in ${join(o.reportDir as string, FAILURES_FILE)}; rerun them with: ${selfCommand()} replay ${join(o.reportDir as string, FAILURES_FILE)}):`);
          // Under each, its reproduction: the curl lines a CI log's reader pastes (keys as $LENDCHECK_API_KEY).
          for (const l of failedCheckBlocks([r], p).flat()) console.log(l);
        }
        // Advice is said, never counted: exitCodeOf reads statuses only (issue 47).
        for (const l of advisoryLines([r], p)) console.log(l);
        process.exitCode = exitCodeOf(r);
        reportToGithub({ runId: 'conformance', verdict: r.status === 'failed' ? 'failed' : r.status === 'incomplete' ? 'incomplete' : 'passed', target: r.target ?? '', profile: r.profile ?? '', startedAt: r.startedAt, durationMs: r.durationMs, parts: [r] }, createRedactor([target.apiKey, ...(target.moreApiKeys ?? []), target.apiKey2, target.burstKey].filter((k): k is string => !!k)));
        if (o.withSchemathesis) {
          const { withSchemathesis } = await import('../../conformance/schemathesis/target.ts');
          const st = await withSchemathesis({
            target,
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
        if (e instanceof TargetUnreachable) throw new InputError(`${e.message}; no check was run`);
        if (e instanceof UnsafeTargetError) throw new InputError(e.message);
        throw e;
      }
    });
}
