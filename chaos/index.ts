// The package root for partners and for the other parts of lendcheck.
export { signWebhook, signWebhookHeaders, verifyWebhook, SIGNATURE_SCHEMES, STANDARD_WEBHOOK_HEADERS } from '../signing/signature.ts';
export type { SignatureScheme, SignOptions, VerifyOptions, VerifyResult, HeaderBag } from '../signing/signature.ts';
export { startReceiver, type Receiver, type ReceiverOptions } from './receiver.ts';
export { parsePlan, loadPlan, planSchema, type Plan, type PlanInput } from './plan.ts';
export { faultNames, getFault, RECEIVER_FAULTS, receiverFault, answer, drop, type FaultDef, type ReceiverFault, type ReceiverFaultName } from './faults/index.ts';
export { validateAttempts, parseTolerance, DEFAULT_TOLERANCE, type ValidateOptions, type Tolerance } from './validate/validate.ts';
export { runCertify, CERTIFY_CHECKS, type CertifyOptions } from './certify/run.ts';
export { writeReports, summarize } from './report.ts';
