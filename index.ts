// The library entry (`import … from 'lendcheck'`): the webhook sign/verify helpers and the
// public types. Only node:crypto is reached from here, so importing the package never loads
// a native module; the receiver, certify and the CLI's parts are under 'lendcheck/chaos'.
export { signWebhook, signWebhookHeaders, verifyWebhook, SIGNATURE_SCHEMES, STANDARD_WEBHOOK_HEADERS } from './signing/signature.ts';
export type { SignatureScheme, SignOptions, VerifyOptions, VerifyResult, HeaderBag } from './signing/signature.ts';
export type { CheckResult, PartResult, RunSummary, Exchange } from './kernel/results.ts';
export type { Profile } from './contract/profile.ts';
export type { Plan, PlanInput } from './chaos/plan.ts';

// The sandbox on a port in this process (a vitest globalSetup), with the CLI's options. Loaded
// on call, and by a path the compiler does not follow, so that importing the package reaches
// no native module (better-sqlite3) and its declarations stay the self-contained ones of
// sandbox/public-types.ts (sandbox/start.ts is checked against them).
export type { SandboxFault, SandboxHandle, SandboxKey, StartedSandbox, StartSandboxOptions } from './sandbox/public-types.ts';
const START_MODULE = './sandbox/start.js';
export async function startSandbox(opts?: import('./sandbox/public-types.ts').StartSandboxOptions): Promise<import('./sandbox/public-types.ts').StartedSandbox> {
  const m = (await import(START_MODULE)) as { startSandbox: typeof startSandbox };
  return m.startSandbox(opts);
}
