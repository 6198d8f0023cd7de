// The partner-facing helpers. The schemes live in the contract (shared with the sandbox's
// dispatcher and the receiver); this module only re-exports them under the package root.
export { signWebhook, signWebhookHeaders, verifyWebhook, SIGNATURE_SCHEMES, STANDARD_WEBHOOK_HEADERS } from '../signing/signature.ts';
export type { SignatureScheme, SignOptions, VerifyOptions, VerifyResult, HeaderBag } from '../signing/signature.ts';
