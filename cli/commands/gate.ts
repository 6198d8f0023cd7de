import type { Command } from 'commander';
import { loadProfile } from '../../contract/index.ts';
import { openApiText } from '../../contract/openapi.ts';
import { readFileSync } from 'node:fs';

/** One step of the gate. Later parts (conformance, load, chaos, certify) register here. */
export interface GatePart {
  name: string;
  run(ctx: { profileFile?: string }): Promise<{ ok: boolean; summary: string }>;
}

export const GATE_PARTS: GatePart[] = [
  {
    name: 'contract',
    async run(ctx) {
      const profile = loadProfile(ctx.profileFile);
      const committed = readFileSync(new URL('../../contract/openapi.json', import.meta.url), 'utf8');
      const fresh = committed === openApiText();
      return { ok: fresh, summary: fresh ? `profile "${profile.name}" valid; openapi.json up to date` : 'contract/openapi.json is stale: run npm run openapi' };
    },
  },
];

export function registerGate(program: Command): void {
  program
    .command('gate')
    .description('Run every part in order against a target (the embedded sandbox by default) and give one verdict')
    .option('--profile <file>', 'profile file (JSON)')
    .action(async (opts: { profile?: string }) => {
      let failed = 0;
      for (const part of GATE_PARTS) {
        const t0 = performance.now();
        const r = await part.run({ profileFile: opts.profile });
        console.log(`${r.ok ? 'PASS' : 'FAIL'} ${part.name} (${Math.round(performance.now() - t0)} ms): ${r.summary}`);
        if (!r.ok) failed++;
      }
      console.log(failed ? `verdict: FAIL (${failed} part(s) failed)` : 'verdict: PASS');
      process.exitCode = failed ? 1 : 0;
    });
}
