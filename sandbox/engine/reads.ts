import { createHmac, randomBytes } from 'node:crypto';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, type Profile } from '../../contract/index.ts';
import { ApiError, invalid } from '../answer/errors.ts';
import { getMeta, setMeta, type Db } from '../store/db.ts';
import type { Ledger } from './ledger.ts';
import { D, interest, ZERO, type Dec } from '../money/money.ts';
import { iso, isOpen, type PositionRow } from '../store/rows.ts';
import { type KeyList, UserKeys } from './user-keys.ts';

// Reads: one position (scoped to its partner), the interest figures derived from a row,
// event data, and the keyset-paginated list with its signed cursor.

const ROW_CACHE_MAX = 50_000;
const MAC_MEMO_MAX = 10_000;

export interface ListQuery {
  status?: string;
  type?: string;
  limit?: number;
  cursor?: string;
}

const LIST_COLUMNS = 'id, status, type, user_id, asset, amount, rate, maturity_ms, created_at_ms';
export type ListRow = Pick<PositionRow, 'id' | 'status' | 'type' | 'user_id' | 'asset' | 'amount' | 'rate' | 'maturity_ms' | 'created_at_ms'>;

/** One list item as JSON text, listItemView's shape and key order. Built here rather than
 *  by SQLite's json_object (whose strftime per row was half a list page's CPU) or by
 *  JSON.stringify of an object per row. */
const q = JSON.stringify;
function listItemText(r: Readonly<PositionRow>): string {
  return `{"positionId":${q(r.id)},"status":${q(r.status)},"type":${q(r.type)},"userId":${q(r.user_id)},"asset":${q(r.asset)},"amount":${q(r.amount)},"rate":${q(r.rate)},"maturity":"${iso(r.maturity_ms)}","createdAt":"${iso(r.created_at_ms)}"}`;
}
/** Item texts of cached rows: a row's text lives as long as its cache entry (a write drops both). */
const itemTexts = new WeakMap<object, string>();
function itemText(r: Readonly<PositionRow>): string {
  let text = itemTexts.get(r);
  if (text === undefined) itemTexts.set(r, (text = listItemText(r)));
  return text;
}

// Module functions rather than closures in the page builder: tsx, which runs the sandbox from
// a checkout, keeps each named closure's name with a defineProperty call as it is created
// (3.7 % of a list page's CPU).
function wanted(e: Readonly<KeyList>, i: number, status: string | undefined, type: string | undefined): boolean {
  return (status === undefined || e.statuses[i] === status) && (type === undefined || e.types[i] === type);
}

export interface ListPage {
  /** Row objects (shape 'rows'); empty under shape 'json'. */
  rows: ListRow[];
  /** Each item's JSON text (shape 'json'). */
  items?: string[];
  nextCursor?: string;
  hasMore: boolean;
}

export class Reads {
  private readonly cursorKey: string;
  private readonly listStmts = new Map<string, ReturnType<Db['prepare']>>();
  private readonly getPos;

  constructor(
    private readonly db: Db,
    private readonly profile: Profile,
    private readonly ledger: Ledger,
    journal: (undo: () => void) => void,
  ) {
    this.getPos = db.prepare('SELECT * FROM positions WHERE id = ?');
    this.keys = new UserKeys(db, journal);
    let key = getMeta(db, 'cursor_key');
    if (!key) {
      key = randomBytes(32).toString('hex');
      setMeta(db, 'cursor_key', key);
    }
    this.cursorKey = key;
  }

  row(positionId: string): PositionRow | undefined {
    return this.getPos.get(positionId) as PositionRow | undefined;
  }

  // Rows for views (GET /positions/{id}, list items): a SELECT * builds a 27-field object in
  // native code, a fifth of a GET's CPU. An entry is dropped by every write of its row
  // (savePosition and insertPosition call forget before they write), and all of them when a
  // transaction rolls back or a commit fails (EngineCore.rolledBack, reloadCaches), so an
  // entry read inside a transaction never outlives a rollback of it. Frozen: views share it.
  private readonly cached = new Map<string, Readonly<PositionRow>>();
  private readonly keys: UserKeys;

  private cachedRow(positionId: string): Readonly<PositionRow> | undefined {
    const hit = this.cached.get(positionId);
    if (hit) return hit;
    const r = this.row(positionId);
    if (r) {
      if (this.cached.size >= ROW_CACHE_MAX) this.cached.clear();
      this.cached.set(positionId, Object.freeze(r));
    }
    return r;
  }

  forget(positionId: string): void {
    this.cached.delete(positionId);
  }

  /** A transaction rolled back: rows it may have read into the cache go with it. */
  forgetRows(): void {
    this.cached.clear();
  }

  /** A commit failed: the rows and every user's keys are read again from what is stored. */
  reload(): void {
    this.cached.clear();
    this.keys.load();
  }

  /** A new position joins its user's keys (insertPosition, in the same transaction). */
  added(r: PositionRow): void {
    this.keys.insert(r);
  }

  /** A saved position's status, for filtered pages (savePosition, in the same transaction). */
  statusChanged(r: PositionRow): void {
    this.keys.statusChanged(r);
  }

  /** A page as item texts from the user's keys and the row cache; undefined when a row does
   *  not belong there (a fault replaced it): SQLite answers then. */
  private pageFromKeys(partnerId: string, userId: string, q: ListQuery, limit: number, desc: boolean, after: { c: number; i: string } | undefined, scope: string): ListPage | undefined {
    const e = this.keys.list(partnerId, userId);
    if (!e) return { rows: [], items: [], hasMore: false };
    const { status, type } = q;
    const at: number[] = [];
    if (desc) {
      let i = after ? UserKeys.above(e, after.c, after.i) - 1 : e.ids.length - 1;
      if (after && i >= 0 && e.created[i] === after.c && e.ids[i] === after.i) i--;
      for (; i >= 0 && at.length <= limit; i--) if (wanted(e, i, status, type)) at.push(i);
    } else {
      for (let i = after ? UserKeys.above(e, after.c, after.i) : 0; i < e.ids.length && at.length <= limit; i++) if (wanted(e, i, status, type)) at.push(i);
    }
    const hasMore = at.length > limit;
    if (hasMore) at.length = limit;
    const items = new Array<string>(at.length);
    for (let k = 0; k < at.length; k++) {
      const r = this.cachedRow(e.ids[at[k]!]!);
      if (!r || r.partner_id !== partnerId || r.user_id !== userId) return undefined;
      items[k] = itemText(r);
    }
    const end = at[at.length - 1];
    return { rows: [], items, hasMore, nextCursor: hasMore && end !== undefined ? this.encodeCursor({ c: e.created[end]!, i: e.ids[end]! }, scope) : undefined };
  }

  /** A partner's position; another partner's is indistinguishable from a missing one.
   *  `shared`: the caller only reads it (a view), so the cached row may be handed out. */
  getPosition(partnerId: string, positionId: string, shared = false): PositionRow {
    const r = shared ? (this.cachedRow(positionId) as PositionRow | undefined) : this.row(positionId);
    if (!r || r.partner_id !== partnerId) throw new ApiError('position_not_found', `positionId: no position ${positionId}`, 404);
    return r;
  }

  /** Interest earned (lend) or owed (borrow) up to `at`, on the filled principal from matchedAt. */
  accrued(r: PositionRow, at: number): Dec {
    if (r.matched_at_ms === null) return ZERO;
    const end = Math.min(at, r.maturity_ms, r.closed_at_ms ?? Number.POSITIVE_INFINITY);
    return interest(new D(r.filled), r.rate, end - r.matched_at_ms, this.ledger.assetDecimals(r.asset));
  }

  projected(r: PositionRow): Dec {
    const start = r.matched_at_ms ?? r.created_at_ms;
    return interest(new D(r.amount), r.rate, r.maturity_ms - start, this.ledger.assetDecimals(r.asset));
  }

  /** What a borrower still owes: principal plus interest accrued and not yet paid. */
  outstanding(r: PositionRow, at: number): Dec {
    if (r.type !== 'borrow' || !isOpen(r.status)) return ZERO;
    const due = D.max(ZERO, this.accrued(r, at).minus(r.interest_paid));
    return new D(r.debt).plus(due);
  }

  /** Event data of a position (shapes.eventDataShapes). */
  eventData(r: PositionRow, type?: string): Record<string, unknown> {
    const data: Record<string, unknown> = {
      positionId: r.id, userId: r.user_id, type: r.type, asset: r.asset, amount: r.amount, rate: r.rate,
      maturity: iso(r.maturity_ms), status: r.status,
    };
    if (type === 'position.matched' && !this.profile.webhooks.matchedIncludesType) delete data.type;
    return data;
  }

  listPositions(partnerId: string, userId: string, q: ListQuery, shape: 'rows' | 'json' = 'rows'): ListPage {
    let limit = q.limit ?? LIST_LIMIT_DEFAULT;
    if (limit > LIST_LIMIT_MAX) {
      if (this.profile.pagination.overMax === 'reject') throw invalid('limit', `must be at most ${LIST_LIMIT_MAX}`);
      limit = LIST_LIMIT_MAX;
    }
    if (this.profile.errors.unknownUser === 'position_not_found' && !this.ledger.userExists(partnerId, userId)) {
      throw new ApiError('position_not_found', `userId: no positions for user ${userId}`, 404);
    }
    const desc = this.profile.pagination.order === 'created-desc';
    const scope = `${partnerId}\u0000${userId}\u0000${q.status ?? ''}\u0000${q.type ?? ''}`;
    let after: { c: number; i: string } | undefined;
    if (q.cursor !== undefined) after = this.decodeCursor(q.cursor, scope);
    const json = shape === 'json';
    if (json) {
      const page = this.pageFromKeys(partnerId, userId, q, limit, desc, after, scope);
      if (page) return page;
    }
    const key = `${q.status ? 's' : ''}${q.type ? 't' : ''}${after ? 'c' : ''}${json ? 'j' : ''}`;
    let stmt = this.listStmts.get(key);
    if (!stmt) {
      const cmp = desc ? '<' : '>';
      const dir = desc ? 'DESC' : 'ASC';
      stmt = this.db.prepare(
        // Only the list's columns: materialising all 27 per row dominated the list's cost.
        `SELECT ${json ? 'id, created_at_ms' : LIST_COLUMNS} FROM positions WHERE partner_id = @p AND user_id = @u` +
          (q.status ? ' AND status = @s' : '') +
          (q.type ? ' AND type = @t' : '') +
          (after ? ` AND (created_at_ms ${cmp} @c OR (created_at_ms = @c AND id ${cmp} @i))` : '') +
          ` ORDER BY created_at_ms ${dir}, id ${dir} LIMIT @n`,
      );
      if (json) stmt.raw(true);
      this.listStmts.set(key, stmt);
    }
    const params: Record<string, unknown> = { p: partnerId, u: userId, n: limit + 1 };
    if (q.status) params.s = q.status;
    if (q.type) params.t = q.type;
    if (after) Object.assign(params, after);
    if (json) {
      // Only the keys come from SQLite (a string per row, not nine); each item is its row's
      // text, built once per version of the row while the row cache holds it.
      const raw = stmt.all(params) as Array<[string, number]>;
      const hasMore = raw.length > limit;
      if (hasMore) raw.length = limit;
      const items = new Array<string>(raw.length);
      for (let i = 0; i < raw.length; i++) {
        items[i] = itemText(this.cachedRow(raw[i]![0])!);
      }
      const end = raw[raw.length - 1]!;
      return { rows: [], items, hasMore, nextCursor: hasMore ? this.encodeCursor({ c: end[1], i: end[0] }, scope) : undefined };
    }
    const rows = stmt.all(params) as ListRow[];
    const hasMore = rows.length > limit;
    if (hasMore) rows.length = limit;
    const last = rows[rows.length - 1];
    return { rows, hasMore, nextCursor: hasMore ? this.encodeCursor({ c: last.created_at_ms, i: last.id }, scope) : undefined };
  }

  // The cursor is a keyset position (createdAt, id) bound to its query and signed, so it is
  // opaque, survives inserts (keyset, not offset) and a tampered one is refused.
  private encodeCursor(pos: { c: number; i: string }, scope: string): string {
    const body = Buffer.from(JSON.stringify(pos)).toString('base64url');
    return `${body}.${this.cursorMac(body, scope)}`;
  }

  private decodeCursor(cursor: string, scope: string): { c: number; i: string } {
    const bad = () => invalid('cursor', 'is not a cursor this list returned');
    const [body, mac, extra] = cursor.split('.');
    if (!body || !mac || extra !== undefined || mac !== this.cursorMac(body, scope)) throw bad();
    let v: unknown;
    try {
      v = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw bad();
    }
    const o = v as { c?: unknown; i?: unknown };
    if (typeof o?.c !== 'number' || typeof o.i !== 'string') throw bad();
    return { c: o.c, i: o.i };
  }

  // A page read again (a poll, a load run) signs the same cursor again: the MAC of each
  // scope and position is kept, bounded, since an HMAC was 8 % of a list page's CPU.
  private readonly macs = new Map<string, string>();

  private cursorMac(body: string, scope: string): string {
    const input = `${scope}\u0000${body}`;
    let mac = this.macs.get(input);
    if (mac === undefined) {
      mac = createHmac('sha256', this.cursorKey).update(input).digest('base64url').slice(0, 22);
      if (this.macs.size >= MAC_MEMO_MAX) this.macs.clear();
      this.macs.set(input, mac);
    }
    return mac;
  }
}
