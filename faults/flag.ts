import type { FaultSetting } from './fault.ts';

/**
 * The `--fault` flag: names separated by commas, each optionally with `:key=value` settings
 * joined by `;` (numbers and booleans as such), e.g. `withdraw-race:gapMs=10,cursor-shift`. The keys
 * `toxicity` and `seed` are the setting's own (the share of requests an HTTP fault touches, and
 * the seed of its draw), not the fault's config.
 */
export function parseFaultFlag(flag: string): FaultSetting[] {
  return flag
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [name, rest] = s.split(/:(.*)/s, 2) as [string, string | undefined];
      if (rest === undefined) return { name };
      const config: Record<string, unknown> = {};
      for (const kv of rest.split(';').filter(Boolean)) {
        const [k, v] = kv.split('=', 2) as [string, string | undefined];
        if (v === undefined) throw new Error(`fault ${name}: setting ${JSON.stringify(kv)} is not key=value`);
        config[k] = v === 'true' ? true : v === 'false' ? false : /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
      }
      const { toxicity, seed, ...own } = config;
      return { name, config: own, ...(toxicity !== undefined ? { toxicity: Number(toxicity) } : {}), ...(seed !== undefined ? { seed: Number(seed) } : {}) };
    });
}
