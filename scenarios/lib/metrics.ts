// Custom metrics shared by the scenarios. Counters are summed across execution
// segments by `lendcheck load --segments`, Rates by passes/fails, Trends from samples.
import { Counter, Rate, Trend } from 'k6/metrics';

/** Requests the limiter admitted, tagged with the phase. */
export const accepted = new Counter('accepted');
/** Requests answered 429, tagged with the phase. */
export const rejected = new Counter('rejected');
/** One per broken header rule; the `rule` tag names which. */
export const headerViolations = new Counter('header_violations');
/** Whether a 429 carried the error body and the headers. */
export const wellFormed429 = new Rate('well_formed_429');
/** Whether a request was accepted after waiting what the headers said. */
export const recovered = new Rate('recovered');
/** Burst: accepted − (bucket + refill over the burst's own span); and (bucket − probe) − accepted. */
export const burstExcess = new Trend('burst_excess');
export const burstShortfall = new Trend('burst_shortfall');
export const burstSeconds = new Trend('burst_seconds');
/** Reset read in seconds from now, per the detected unit. */
export const resetSeconds = new Trend('reset_seconds');
/** Answers other than 2xx and 429. */
export const unexpectedStatus = new Rate('unexpected_status');

/** Matching: order acceptance and time until the position is active. */
export const orderAccept = new Trend('order_accept_ms', true);
export const timeToMatch = new Trend('time_to_match_ms', true);
export const matched = new Rate('matched');
export const orderErrors = new Rate('order_errors');
