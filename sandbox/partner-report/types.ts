// What the partner report observes and what it says. The sandbox is the partner's counterpart
// in a test run, so it sees every request the partner's code made, the answer it gave, and
// every webhook delivery with the partner's answer: enough to say where that code broke the
// interface's rules (spec parts 4–8), the way conformance says it of a service.

/** One request of the partner's code and the sandbox's answer, as the report keeps it. */
export interface Exchange {
  seq: number;
  /** Wall-clock ms when the request arrived (rate limits run on real time too). */
  at: number;
  /** Real ms until the answer. */
  ms: number;
  method: string;
  /** Path and query string. */
  target: string;
  /** The contract endpoint id, when the request named one. */
  endpoint?: string;
  /** The partner whose valid key was presented. */
  partner?: string;
  /** The key's non-secret id, when valid. */
  keyId?: string;
  /** The key's kind by prefix: never the key. */
  key: 'none' | 'test' | 'live' | 'other';
  /** The Content-Type header as sent. */
  contentType?: string;
  /** Whether the request carried a body (any bytes). */
  hasBody: boolean;
  /** Order bodies only (lend/borrow), for spotting the same order placed twice; never other bodies. */
  orderBody?: string;
  /** POST /webhooks only: what was subscribed (the secret is never kept). */
  subscription?: { url: string; events: string[] };
  status: number;
  /** Error code of a refusal. */
  errorCode?: string;
  errorMessage?: string;
  /** On a 429: wall ms from which the sandbox said a request would be let through (X-RateLimit-Reset or Retry-After, the earlier). */
  retryAt?: number;
  /** Position reads: the status(es) the answer showed, to tell polling from reading. */
  seenStatus?: string;
  /** The position an order created. */
  positionId?: string;
}

/** One webhook delivery attempt and the partner receiver's answer. */
export interface DeliveryObservation {
  eventId: string;
  type: string;
  url: string;
  partner: string;
  /** Real ms the receiver took; null when it never answered. */
  latencyMs: number | null;
  status: number | null;
  error?: string;
  /** true for the report's deliberately mis-signed probe. */
  probe: boolean;
}

export interface ObservedRun {
  exchanges: readonly Exchange[];
  deliveries: readonly DeliveryObservation[];
  /** Success statuses of a webhook answer, by the profile (200 only, or any 2xx). */
  isAck(status: number | null): boolean;
}

/** One request as a finding shows it (no key, no body but an order's). */
export interface EvidenceRequest {
  seq: number;
  at: string;
  method: string;
  target: string;
  status: number;
  partner?: string;
  note?: string;
}

export interface Finding {
  /** The check's registered name. */
  check: string;
  /** Spec part the rule comes from. */
  rule: string;
  expected: string;
  received: string;
  partner?: string;
  requests: EvidenceRequest[];
  deliveries?: Array<Omit<DeliveryObservation, 'partner'>>;
}

/** A check: one small function over the observed run, findings out (Schemathesis-style). */
export interface PartnerCheck {
  name: string;
  rule: string;
  description: string;
  run(observed: ObservedRun): Finding[];
}

export interface PartnerReport {
  findings: Finding[];
  /** Names of the checks that ran. */
  checks: string[];
  exchanges: number;
  deliveries: number;
  /** Oldest exchanges dropped past the record's cap (the checks saw only the newest). */
  dropped: number;
}

export const evidence = (e: Exchange, note?: string): EvidenceRequest => ({
  seq: e.seq,
  at: new Date(e.at).toISOString(),
  method: e.method,
  target: e.target,
  status: e.status,
  ...(e.partner ? { partner: e.partner } : {}),
  ...(note ? { note } : {}),
});

/** The evidence of a finding: the first `n` requests, the last of them saying how many more there were. */
export function firstOf(list: EvidenceRequest[], n = 5): EvidenceRequest[] {
  if (list.length <= n) return list;
  const shown = list.slice(0, n);
  const last = shown[n - 1];
  shown[n - 1] = { ...last, note: `${last.note ? `${last.note}; ` : ''}and ${list.length - n} more like these` };
  return shown;
}

/** Map.groupBy, which Node 20 lacks. */
export function groupBy<T, K>(list: readonly T[], key: (t: T) => K): Map<K, T[]> {
  const m = new Map<K, T[]>();
  for (const t of list) {
    const k = key(t);
    const g = m.get(k);
    if (g) g.push(t);
    else m.set(k, [t]);
  }
  return m;
}

/** Whether a Content-Type names JSON (part 4: application/json, any parameters). */
export const isJsonType = (ct: string | undefined): boolean => ct !== undefined && /^application\/json\s*(;|$)/i.test(ct.trim());
