import { createHash } from 'node:crypto';

// What the kill drill's clients and webhook receiver saw; kill-verify.ts holds the restarted
// sandbox's file to it.

interface AckedOrder {
  partnerId: string;
  userId: string;
  type: 'lend' | 'borrow';
  asset: string;
  amount: string;
  maturityMs: number;
  collateral?: { asset: string; amount: string };
}

/** Everything the client side saw; verify() holds the database to it. */
export interface Recorded {
  orders: Map<string, AckedOrder>;
  cancelled: Set<string>;
  fullyRepaid: Set<string>;
  /** Last acknowledged autoRollover per position; positions with a PATCH lost in flight are dropped. */
  patched: Map<string, boolean>;
  withdrawals: Map<string, { partnerId: string; userId: string; asset: string; amount: string }>;
  funds: Array<{ partnerId: string; userId: string; asset: string; amount: string }>;
  /** Event id → distinct bodies received. */
  bodies: Map<string, Set<string>>;
  /** Event ids the receiver answered 2xx (delivered). */
  delivered: Set<string>;
  /** Event ids received before each kill. */
  receivedBeforeKill: Set<string>;
  /** Positions present though never acknowledged, already accounted to an earlier kill. */
  knownUnacked: Set<string>;
}

export function emptyRecorded(): Recorded {
  return {
    orders: new Map(), cancelled: new Set(), fullyRepaid: new Set(), patched: new Map(), withdrawals: new Map(), funds: [],
    bodies: new Map(), delivered: new Set(), receivedBeforeKill: new Set(), knownUnacked: new Set(),
  };
}

/** Receipt counts over the whole drill (they span kills, as the outbox does). */
export interface Receipts {
  redeliveries: number;
  retries: number;
  total: number;
}

/** The receiver: fails attempts 1 and 2 of a fixed share of events, records every body. */
export function recordingAnswer(rec: Recorded, failShare: number): { answer: (body: string) => { status: number }; receipts: Receipts } {
  const attempts = new Map<string, number>();
  const receipts: Receipts = { redeliveries: 0, retries: 0, total: 0 };
  const answer = (body: string) => {
    let id = '?';
    try {
      id = String((JSON.parse(body) as { id: unknown }).id);
    } catch {
      // a body that is not JSON is kept under "?" and fails verify()
    }
    const set = rec.bodies.get(id) ?? new Set<string>();
    set.add(body);
    rec.bodies.set(id, set);
    receipts.total++;
    const n = (attempts.get(id) ?? 0) + 1;
    attempts.set(id, n);
    if (rec.delivered.has(id)) receipts.redeliveries++;
    else if (n > 1) receipts.retries++;
    const h = createHash('sha256').update(id).digest().readUInt32BE(0) / 2 ** 32;
    if (h < failShare && n <= 2) return { status: 500 };
    rec.delivered.add(id);
    return { status: 200 };
  };
  return { answer, receipts };
}
