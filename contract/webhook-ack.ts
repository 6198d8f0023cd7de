import { WEBHOOK_RESPONSE_DEADLINE_MS } from './constants.ts';
import type { Profile } from './profile.ts';

// What counts as a webhook acknowledgement (part 6): a success status, as the profile reads
// "2xx" (webhooks.successStatuses), answered within the 5 s deadline. An answer after the
// deadline is a failed attempt the sender must retry. One rule for the dispatcher (which
// sends), certify (which judges a receiver) and validate (which judges a sender).

type AckProfile = Pick<Profile, 'webhooks'>;

/** Whether an answer's status acknowledges a delivery; null (no answer) never does. */
export function isAckStatus(profile: AckProfile, status: number | null | undefined): boolean {
  if (status === null || status === undefined) return false;
  return profile.webhooks.successStatuses === '200' ? status === 200 : status >= 200 && status < 300;
}

/** Whether an attempt was acknowledged: a success status answered within the deadline. */
export function isAcknowledged(profile: AckProfile, answer: { status: number | null | undefined; ms: number | null | undefined }, deadlineMs = WEBHOOK_RESPONSE_DEADLINE_MS): boolean {
  return isAckStatus(profile, answer.status) && answer.ms !== null && answer.ms !== undefined && answer.ms <= deadlineMs;
}

/** The acknowledgement as it reads in "expected …": "a 2xx within 5000 ms". */
export function ackExpectation(profile: AckProfile, deadlineMs = WEBHOOK_RESPONSE_DEADLINE_MS): string {
  return `${profile.webhooks.successStatuses === '200' ? '200' : 'a 2xx'} within ${deadlineMs} ms`;
}

// A receiver that answers slowly, to see a sender wait for it: inside part 6's 5 s.
// Why 3 s and not nearer 5: the receiver's 5 s start when the delivery arrives, but a correct
// sender may well count its own 5 s from before it connects (one overall timeout, the common
// way). What lies between the two (its connect, the way there and back, a loaded machine's
// stalls on either side) comes out of the 5 s, and soak seeds 5 and 6 saw 2.0 and 3.3 s of it
// on a shared two-core machine: a 4 s answer then reached a correct sender after its deadline.
// 3 s leaves 2 s and still catches the senders that do not wait (a 1 or 2 s timeout, or none).

/** A slow receiver's answer time, for the checks of a sender's wait (chaos retry watch, conformance hooks.answer-window). */
export const SLOW_ANSWER_MS = 3_000;
/** Our own answer later than planned by more than this (our timers on a loaded machine) is not judged. */
export const LATE_ANSWER_MS = 500;

/**
 * Whether a slow receiver's own 200 went out late (after SLOW_ANSWER_MS plus LATE_ANSWER_MS):
 * then the 200 may have reached a correct sender after its 5 s, and a retry that followed says
 * nothing of the sender's wait. One rule for the retry watch and hooks.answer-window.
 */
export function ownAnswerLate(a: { at: number; answeredAt?: number }): boolean {
  return a.answeredAt !== undefined && a.answeredAt - a.at > SLOW_ANSWER_MS + LATE_ANSWER_MS;
}
