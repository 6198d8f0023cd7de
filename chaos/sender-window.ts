import { WEBHOOK_RETRY_DELAYS_MS, type Profile } from '../contract/index.ts';

// Part 6: the receiver verifies a delivery "over the raw request body with the subscription
// secret"; how old a signed timestamp may be is not the spec's (signature.toleranceSeconds, never
// detected, is the sandbox's five minutes). Where lendcheck judges a SENDER (the retry watch,
// `chaos receive`), a sender may sign each attempt anew or keep its first attempt's timestamp on
// every retry: the watch's retry 2 comes 6 minutes after it, past a 5-minute window, and a correct
// sender was failed as "stale". There, a timestamp binds only past the whole retry schedule
// (26 h 36 min) and an hour more. The profile's window still binds where lendcheck judges a
// RECEIVER (chaos certify), whose own replay window it is.

const SCHEDULE_S = Math.ceil(WEBHOOK_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) / 1000);

/** The replay window a sender's deliveries are verified under: the profile's, or the retry schedule and an hour if longer. */
export function senderWindowSeconds(p: Pick<Profile, 'signature'>): number {
  return Math.max(p.signature.toleranceSeconds, SCHEDULE_S + 3600);
}
