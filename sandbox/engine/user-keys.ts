import type { Db } from '../store/db.ts';
import type { PositionRow } from '../store/rows.ts';

// Each user's positions in list order (created_at_ms, then id), with the two columns a list
// filters on: the index of GET /users/{userId}/positions, held in memory. SQLite kept it as
// an index (partner_id, user_id, created_at_ms, id, status, type), and since every order
// lands on the leaf page of its own user, each one dirtied a page of its own in the group
// commit: 40 % of an order's engine CPU. Here it is loaded once from the table at start,
// kept in step by inserts and status changes, and a rolled-back transaction takes its
// changes back through the store's undo journal (EngineStore.journal).

export interface KeyList {
  ids: string[];
  created: number[];
  types: string[];
  statuses: string[];
}

type Keyed = Pick<PositionRow, 'partner_id' | 'user_id' | 'id' | 'created_at_ms'>;

const userKey = (partnerId: string, userId: string) => `${partnerId}\u0000${userId}`;

export class UserKeys {
  private readonly users = new Map<string, KeyList>();
  private readonly scan;

  constructor(
    db: Db,
    /** Registers how to take a change back if the open transaction rolls back. */
    private readonly journal: (undo: () => void) => void,
  ) {
    this.scan = db.prepare('SELECT partner_id, user_id, id, created_at_ms, type, status FROM positions ORDER BY seq').raw(true);
    this.load();
  }

  /** Reads every position's keys from the table (at start, and after a failed commit). */
  load(): void {
    this.users.clear();
    for (const [p, u, id, c, t, s] of this.scan.iterate() as IterableIterator<[string, string, string, number, string, string]>) {
      this.place(this.listOf(p, u, true)!, id, c, t, s);
    }
  }

  /** The user's keys, or undefined for a user without positions. */
  list(partnerId: string, userId: string): Readonly<KeyList> | undefined {
    return this.users.get(userKey(partnerId, userId));
  }

  /** A new position (in the transaction that inserts it). */
  insert(r: PositionRow): void {
    const e = this.listOf(r.partner_id, r.user_id, true)!;
    this.place(e, r.id, r.created_at_ms, r.type, r.status);
    this.journal(() => {
      const i = this.slot(e, r);
      if (i >= 0) for (const a of [e.ids, e.created, e.types, e.statuses] as unknown[][]) a.splice(i, 1);
    });
  }

  /** A position's status as just saved (in the transaction that saves it). */
  statusChanged(r: PositionRow): void {
    const e = this.listOf(r.partner_id, r.user_id, false);
    const i = e ? this.slot(e, r) : -1;
    if (!e || i < 0 || e.statuses[i] === r.status) return;
    const before = e.statuses[i]!;
    e.statuses[i] = r.status;
    this.journal(() => {
      const j = this.slot(e, r);
      if (j >= 0) e.statuses[j] = before;
    });
  }

  /** Index of the first key after (c, id) in ascending order. */
  static above(e: Readonly<KeyList>, c: number, id: string): number {
    let lo = 0;
    let hi = e.ids.length;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (e.created[m]! < c || (e.created[m] === c && e.ids[m]! <= id)) lo = m + 1;
      else hi = m;
    }
    return lo;
  }

  private listOf(partnerId: string, userId: string, create: boolean): KeyList | undefined {
    const k = userKey(partnerId, userId);
    let e = this.users.get(k);
    if (!e && create) this.users.set(k, (e = { ids: [], created: [], types: [], statuses: [] }));
    return e;
  }

  private place(e: KeyList, id: string, c: number, type: string, status: string): void {
    // New positions carry the latest business time, so this is an append but for ties and
    // for rows written with an earlier time (a rollover dated at its maturity).
    let i = e.ids.length;
    while (i > 0 && (e.created[i - 1]! > c || (e.created[i - 1] === c && e.ids[i - 1]! > id))) i--;
    if (i === e.ids.length) {
      e.ids.push(id);
      e.created.push(c);
      e.types.push(type);
      e.statuses.push(status);
    } else {
      e.ids.splice(i, 0, id);
      e.created.splice(i, 0, c);
      e.types.splice(i, 0, type);
      e.statuses.splice(i, 0, status);
    }
  }

  private slot(e: KeyList, r: Keyed): number {
    const i = UserKeys.above(e, r.created_at_ms, r.id) - 1;
    return i >= 0 && e.ids[i] === r.id ? i : -1;
  }
}
