import type { SandboxPlugin } from '../pipeline/plugin.ts';

// Makes chosen endpoints slower by a fixed number of milliseconds, so the regression gate
// can be shown to catch a slowed endpoint (cli/history/regression.test.ts). A tool for tests,
// but shipped: `lendcheck sandbox --test-delay rates.get=200` serves it, so it lives outside
// testing/ (which the build leaves out). The endpoint is the one the router named
// (req.endpoint); the map may be changed while serving.

export function parseDelays(text: string | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of (text ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([\w.-]+)=(\d+)$/.exec(part);
    if (!m) throw new Error(`--test-delay: expected endpoint=ms (e.g. rates.get=200) / received "${part}"`);
    out.set(m[1], Number(m[2]));
  }
  return out;
}

export function delayPlugin(delays: Map<string, number>): SandboxPlugin {
  return {
    name: 'test-delay',
    stage() {
      return (req, next) => {
        const ms = delays.size && req.endpoint !== undefined ? delays.get(req.endpoint) : undefined;
        return ms ? new Promise<void>((r) => setTimeout(r, ms)).then(next) : next();
      };
    },
  };
}
