import { createHmac, randomBytes } from 'node:crypto';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, type Profile } from '../../contract/index.ts';
import { ApiError, invalid } from '../errors.ts';
import { getMeta, setMeta, type Db } from '../store/db.ts';
import type { Ledger } from './ledger.ts';
import { D, interest, ZERO, type Dec } from './money.ts';
import { iso, isOpen, type PositionRow } from './rows.ts';

// Reads: one position (scoped to its partner), the interest figures derived from a row,
// event data, and the keyset-paginated list with its signed cursor.

const ROW_CACHE_MAX = 50_000;

export interface ListQuery {
  status?: string;
  type?: string;
  limit?: number;
  cursor?: string;
}

const LIST_COLUMNS = 'id, status, type, user_id, asset, amount, rate, maturity_ms, created_at_ms';
export type ListRow = Pick<PositionRow, 'id' | 'status' | 'type' | 'user_id' | 'asset' | 'amount' | 'rate' | 'maturity_ms' | 'created_at_ms'>;

/** One list item as JSON text, listItemView's shape and key order, from a raw row of
 *  LIST_COLUMNS. Built here rather than by SQLite's json_object (whose strftime per row was
 *  half a list page's CPU) or by JSON.stringify of an object per row. */
const q = JSON.stringify;
function listItemText(r: unknown[]): string {
  return `{"positionId":${q(r[0])},"status":${q(r[1])},"type":${q(r[2])},"userId":${q(r[3])},"asset":${q(r[4])},"amount":${q(r[5])},"rate":${q(r[6])},"maturity":"${iso(r[7] as number)}","createdAt":"${iso(r[8] as number)}"}`;
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
  ) {
    this.getPos = db.prepare('SELECT * FROM positions WHERE id = ?');
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

  // Rows as last committed, for views (GET /positions/{id}): a SELECT * builds a 27-field
  // object in native code, a fifth of a GET's CPU. An entry is dropped by every write of its
  // row (savePosition, insertPosition call forget before they write) and all of them after a
  // failed commit (reloadCaches); it is stored only outside a transaction, so nothing that
  // could still roll back is kept. Frozen: the views share it and must not change it.
  private readonly cached = new Map<string, Readonly<PositionRow>>();

  private committedRow(positionId: string): Readonly<PositionRow> | undefined {
    const hit = this.cached.get(positionId);
    if (hit) return hit;
    const r = this.row(positionId);
    if (r && !this.db.inTransaction) {
      if (this.cached.size >= ROW_CACHE_MAX) this.cached.clear();
      this.cached.set(positionId, Object.freeze(r));
    }
    return r;
  }

  forget(positionId: string): void {
    this.cached.delete(positionId);
  }

  forgetAll(): void {
    this.cached.clear();
  }

  /** A partner's position; another partner's is indistinguishable from a missing one.
   *  `shared`: the caller only reads it (a view), so the cached row may be handed out. */
  getPosition(partnerId: string, positionId: string, shared = false): PositionRow {
    const r = shared ? (this.committedRow(positionId) as PositionRow | undefined) : this.row(positionId);
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
    const key = `${q.status ? 's' : ''}${q.type ? 't' : ''}${after ? 'c' : ''}${json ? 'j' : ''}`;
    let stmt = this.listStmts.get(key);
    if (!stmt) {
      const cmp = desc ? '<' : '>';
      const dir = desc ? 'DESC' : 'ASC';
      stmt = this.db.prepare(
        // Only the list's columns: materialising all 27 per row dominated the list's cost.
        `SELECT ${LIST_COLUMNS} FROM positions WHERE partner_id = @p AND user_id = @u` +
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
      const raw = stmt.all(params) as unknown[][];
      const hasMore = raw.length > limit;
      if (hasMore) raw.length = limit;
      const items = new Array<string>(raw.length);
      for (let i = 0; i < raw.length; i++) items[i] = listItemText(raw[i]!);
      const end = raw[raw.length - 1]!;
      return { rows: [], items, hasMore, nextCursor: hasMore ? this.encodeCursor({ c: end[8] as number, i: end[0] as string }, scope) : undefined };
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

  private cursorMac(body: string, scope: string): string {
    return createHmac('sha256', this.cursorKey).update(`${scope}\u0000${body}`).digest('base64url').slice(0, 22);
  }
}
