import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Profile } from '../contract/index.ts';
import { redactProfileFile } from './file-redact.ts';
import { leftBehindLines } from './cleanup.ts';
import { detectProfile, profileFile, type DetectOptions, type DetectedProfile } from './index.ts';

// Shared by `lendcheck profile detect` and `lendcheck gate --detect-profile`: run the
// detection, write the profile file (keys and secrets redacted), and summarise it.

export async function detectToFile(o: DetectOptions, out: string): Promise<{ detected: DetectedProfile; file: string; summary: string[] }> {
  const detected = await detectProfile(o);
  const secrets = [o.apiKey, o.apiKey2 ?? '', o.newKey ?? ''];
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(redactProfileFile(profileFile(detected, o.baseUrl), secrets), null, 2)}\n`);
  return { detected, file: out, summary: [...summarise(detected), ...(detected.leftBehind ? leftBehindLines(detected.leftBehind, o.baseUrl) : [])] };
}

export function summarise(d: DetectedProfile): string[] {
  const rows = Object.entries(d.options);
  const found = rows.filter(([, r]) => r.detected);
  const lines = [`profile detect: ${found.length} of ${rows.length} options detected with ${d.requests} of at most ${d.maxRequests} requests in ${d.durationMs} ms${d.budgetNote ? ` (budget ${d.budgetNote})` : ''}`];
  for (const [k, r] of found) if (r.detected && JSON.stringify(r.value) !== JSON.stringify(r.default)) lines.push(`  ${k} = ${JSON.stringify(r.value)} (${r.confidence}; default ${JSON.stringify(r.default)})`);
  lines.push('  not detected (kept at the default):');
  for (const [k, r] of rows) if (!r.detected) lines.push(`    ${k}: ${r.reason}`);
  return lines;
}

/** `--retry-wait <seconds>` of both commands, as DetectOptions.retryWaitMs; out of bounds throws naming the flag. */
export function retryWaitMs(seconds: number | undefined): number | undefined {
  if (seconds === undefined) return undefined;
  if (!(seconds >= 0 && seconds <= 3600)) throw new Error(`--retry-wait: seconds from 0 to 3600, got ${seconds}`);
  return seconds * 1000;
}

/** For the gate: the detected profile to run with, and the file it was written to. */
export async function detectForGate(o: DetectOptions, reportDir: string, log: (l: string) => void): Promise<{ profile: Profile; file: string }> {
  const { detected, file, summary } = await detectToFile(o, `${reportDir}/detected-profile.json`);
  log(summary[0]!);
  return { profile: detected.merged, file };
}
