import type { ChildProcess } from 'node:child_process';
import type { StopSignal } from './restart-result.ts';

// The drill's options, apart from the drill: the receiver side takes a part of them, and the
// drill imports the receiver side.

export interface DrillOptions {
  /** The sender: a sandbox base URL ending in /v1, webhooks on, clock at `timeScale`. */
  baseUrl: string;
  apiKey?: string;
  timeScale: number;
  /** Directory for the receiver's DB. */
  dir: string;
  /** How the receiver is stopped each time; one restart per entry. */
  stops: StopSignal[];
  /** Real ms of stream before the first stop, between restarts and after the last. */
  intervalMs: number;
  /** Real ms the receiver stays down (from its exit to the release of the next process). */
  gapMs: number;
  /** Triggered events per second, sent without waiting for one another. */
  ratePerSec: number;
  /**
   * Warm: the next receiver process is loaded beforehand and released after the gap, so the
   * outage is the gap. Cold: it is spawned after the gap and the outage adds its start-up.
   */
  warm: boolean;
  /**
   * The receiver holds every event's first attempt this long before answering 200, so a stop
   * finds exchanges in flight (their rows committed, their answers not sent) and their retries
   * land in the next session. 0 or absent: answer at once.
   */
  holdFirstMs?: number;
  /** Run the deliberately broken receiver (acknowledges before committing) instead. */
  lossy?: boolean;
  drainTimeoutMs?: number;
  /** Children are pushed here as they start, so a caller's finally can kill them. */
  track?: ChildProcess[];
  log?: (line: string) => void;
}
