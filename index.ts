// The library entry (`import … from 'lendcheck'`): the webhook sign/verify helpers and the
// public types. Only node:crypto is reached from here, so importing the package never loads
// a native module; the receiver, certify and the CLI's parts are under 'lendcheck/chaos'.
export { signWebhook, signWebhookHeaders, verifyWebhook, SIGNATURE_SCHEMES, STANDARD_WEBHOOK_HEADERS } from './signing/signature.ts';
export type { SignatureScheme, SignOptions, VerifyOptions, VerifyResult, HeaderBag } from './signing/signature.ts';
export type { CheckResult, PartResult, RunSummary, Exchange } from './kernel/results.ts';
export type { Profile } from './contract/profile.ts';
export type { Plan, PlanInput } from './chaos/plan.ts';
