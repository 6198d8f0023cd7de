import { TARGET_ENV, type TargetFlags } from '../gate/target.ts';
import type { GivenKey } from './preflight.ts';

/** The gate's keys, each named by its option, or by the environment variable that carried it. */
export function gateKeys(given: TargetFlags, merged: TargetFlags): GivenKey[] {
  const opts: Array<[keyof typeof TARGET_ENV, string]> = [
    ['apiKey', '--api-key'],
    ['apiKey2', '--api-key-2'],
    ['burstKey', '--burst-key'],
    ['keyStarter', '--key-starter'],
    ['keyGrowth', '--key-growth'],
    ['keyScale', '--key-scale'],
  ];
  return opts.map(([k, option]) => ({ option: given[k] ? option : TARGET_ENV[k], key: merged[k] as string | undefined }));
}
