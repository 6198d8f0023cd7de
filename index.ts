// The library entry (`import … from 'lendcheck'`): the webhook sign/verify helpers and the
// public types. Only node:crypto is reached from here, so importing the package never loads
// a native module; the receiver, certify and the CLI's parts are under 'lendcheck/chaos'.
export { signWebhook, signWebhookHeaders, verifyWebhook, SIGNATURE_SCHEMES, STANDARD_WEBHOOK_HEADERS } from './signing/signature.ts';
export type { SignatureScheme, SignOptions, VerifyOptions, VerifyResult, HeaderBag } from './signing/signature.ts';
export type { CheckResult, PartResult, RunSummary, Exchange } from './kernel/results.ts';
export type { Profile } from './contract/profile.ts';
export type { Plan, PlanInput } from './chaos/plan.ts';

// The sandbox on a port in this process (a vitest globalSetup), with the CLI's options. Loaded
// on call, so that importing the package still reaches no native module (better-sqlite3).
export type { StartSandboxOptions, StartedSandbox } from './sandbox/start.ts';
export type { KeyEntry } from './sandbox/auth/keys.ts';
export async function startSandbox(opts?: import('./sandbox/start.ts').StartSandboxOptions): Promise<import('./sandbox/start.ts').StartedSandbox> {
  const { startSandbox: start } = await import('./sandbox/start.ts');
  return start(opts);
}
