// Row shapes of the SQLite tables the engine owns (see store/db.ts).

export interface PositionRow {
  seq: number;
  id: string;
  partner_id: string;
  user_id: string;
  type: 'lend' | 'borrow';
  asset: string;
  /** The market's maturity duration, e.g. "30d". */
  market: string;
  amount: string;
  filled: string;
  /** Σ fill × rate, so the final rate is the fill-weighted average. */
  fill_value: string;
  /** The order's limit: minimum accepted (lend) or maximum accepted (borrow). */
  limit_rate: number;
  rate: number;
  maturity_ms: number;
  status: string;
  mode: string | null;
  auto_rollover: number;
  auto_refinance: number;
  collateral_asset: string | null;
  collateral_amount: string | null;
  /** Borrow principal still owed. */
  debt: string;
  interest_paid: string;
  payout: string | null;
  created_at_ms: number;
  matched_at_ms: number | null;
  closed_at_ms: number | null;
  rolled_from: string | null;
  rolled_to: string | null;
}

export interface WithdrawalRow {
  id: string;
  partner_id: string;
  user_id: string;
  asset: string;
  amount: string;
  destination: string;
  status: 'pending' | 'completed';
  created_at_ms: number;
  due_ms: number;
  completed_at_ms: number | null;
}

export interface OutboxEvent {
  seq: number;
  id: string;
  partnerId: string;
  type: string;
  envelope: { id: string; type: string; timestamp: string; data: Record<string, unknown> };
}

/** Statuses in which a position still holds value (funds locked, lent, or collateral). */
export const OPEN_STATUSES = ['pending', 'active'] as const;
export const isOpen = (status: string) => status === 'pending' || status === 'active';

export const iso = (ms: number) => new Date(ms).toISOString();
