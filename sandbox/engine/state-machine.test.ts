import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultProfile, parseProfile, type Profile } from '../../contract/index.ts';
import { createSandbox } from '../app.ts';
import { TestClock } from './clock.ts';
import { ApiError } from '../answer/errors.ts';
import { ASSETS, cmd, PARTNERS, run, USERS, type Cmd } from '../testing/engine-ops.ts';
import type { PositionRow } from '../store/rows.ts';
import { Lifecycle, transitionTable } from './state-machine.ts';

// The lifecycle state machine is the only way a status changes. The database itself
// records every status a position is written with (SQLite triggers, independent of the
// engine's code), and random operation sequences must never show a move outside the
// profile's table — under the default table and under one with other terminal statuses.

const renamed = parseProfile({
  lifecycle: {
    statusAfterFullRepay: 'repaid',
    statusAfterLiquidation: 'defaulted',
    transitions: {
      pending: ['active', 'cancelled'],
      active: ['matured', 'repaid', 'defaulted'],
      matured: [],
      cancelled: [],
      repaid: [],
      defaulted: [],
    },
  },
});

/** A lend, a borrow that crosses it (both become active), the borrow's full repay, and a lend cancelled unmatched. */
const OPENING: Cmd[] = [
  { k: 'lend', p: 'pa', u: 'u1', asset: 'USDC', amount: '100', rate: 0.05, maturity: '30d', roll: false },
  { k: 'borrow', p: 'pa', u: 'u2', asset: 'USDC', amount: '100', coll: '1', collAsset: 'ETH', rate: 0.05, maturity: '30d', refi: false },
  { k: 'repay', pick: 1 },
  { k: 'lend', p: 'pa', u: 'u3', asset: 'DAI', amount: '50', rate: 0.06, maturity: '90d', roll: false },
  { k: 'cancel', pick: 2 },
];

const RECORD_MOVES = `
CREATE TEMP TABLE moves (from_status TEXT, to_status TEXT NOT NULL);
CREATE TEMP TRIGGER move_on_insert AFTER INSERT ON main.positions BEGIN INSERT INTO moves VALUES (NULL, NEW.status); END;
CREATE TEMP TRIGGER move_on_update AFTER UPDATE OF status ON main.positions WHEN OLD.status IS NOT NEW.status
  BEGIN INSERT INTO moves VALUES (OLD.status, NEW.status); END;`;

function checkProfile(name: string, profile: Profile, mustReach: string[]): void {
  it(`${name}: random operation sequences never produce a transition outside the profile's table`, async () => {
    const table = transitionTable(profile);
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { minLength: 5, maxLength: 40, size: 'max' }), fc.boolean(), async (cmds, liquidity) => {
        const clock = new TestClock({ startMs: Date.parse('2026-01-01T00:00:00Z'), realNow: () => 0 });
        const sb = createSandbox({
          profile, clock, plugins: [], tickMs: 0, startingFunds: {}, groupCommit: false, validateResponses: false,
          liquidity: { enabled: liquidity, delaySeconds: 5 },
        });
        try {
          const engine = sb.engine;
          sb.db.exec(RECORD_MOVES);
          const ids: Array<[string, string]> = [];
          const external = new Map();
          for (const p of PARTNERS) for (const u of USERS) for (const asset of [...ASSETS, 'ETH']) run(engine, clock, { k: 'fund', p, u, asset, amount: '20000' }, ids, external);
          // A full repay and a cancel are rare in random sequences; every run starts with
          // them so those moves are always exercised, then goes on at random.
          for (const c of [...OPENING, ...cmds]) {
            try {
              run(engine, clock, c, ids, external);
            } catch (e) {
              if (!(e instanceof ApiError)) throw e;
            }
          }
          const moves = sb.db.prepare('SELECT from_status, to_status FROM moves').all() as Array<{ from_status: string | null; to_status: string }>;
          for (const m of moves) {
            const key = `${m.from_status ?? '∅'} → ${m.to_status}`;
            seen.set(key, (seen.get(key) ?? 0) + 1);
            if (m.from_status === null) expect(m.to_status, 'a position is created pending').toBe('pending');
            else expect(table[m.from_status] ?? [], `${key} is in the table`).toContain(m.to_status);
          }
        } finally {
          await sb.close();
        }
      }),
      { numRuns: Number(process.env.PROP_RUNS ?? 100) },
    );
    // The runs must have exercised the moves, or the property says nothing.
    for (const k of mustReach) expect(seen.get(k) ?? 0, `runs reached ${k} (saw ${[...seen.keys()].join(', ')})`).toBeGreaterThan(0);
  }, 300_000);
}

describe('lifecycle state machine (property)', () => {
  checkProfile('default profile', defaultProfile, ['∅ → pending', 'pending → active', 'pending → cancelled', 'active → matured', 'active → liquidated']);
  checkProfile('non-default transitions', renamed, ['pending → active', 'pending → cancelled', 'active → matured', 'active → repaid', 'active → defaulted']);
});

describe('lifecycle state machine', () => {
  const row = (status: string) => ({ status }) as PositionRow;

  it('refuses a move its table does not list, with the profile’s invalid-state error', () => {
    const profile = parseProfile({ errors: { invalidState: { code: 'invalid_state', status: 409 } } });
    const lc = new Lifecycle(profile);
    const r = row('matured');
    expect(() => lc.transition(r, 'active')).toThrow(expect.objectContaining({ code: 'invalid_state', status: 409 }));
    expect(r.status).toBe('matured');
    const p = row('pending');
    lc.transition(p, 'active');
    expect(p.status).toBe('active');
  });

  it('counts the statuses the profile names after a full repay and a liquidation as moves from active', () => {
    const t = transitionTable(parseProfile({ lifecycle: { statusAfterFullRepay: 'closed', statusAfterLiquidation: 'seized' } }));
    expect(t.active).toEqual(expect.arrayContaining(['matured', 'liquidated', 'closed', 'seized']));
    expect(t.pending).toEqual(['active', 'cancelled']);
  });

  it('refuses at start a table without a move the sandbox makes on its own', () => {
    const profile = parseProfile({ lifecycle: { transitions: { pending: ['active'], active: ['matured', 'liquidated'] } } });
    expect(() => new Lifecycle(profile)).toThrow(/lacks pending → cancelled/);
  });

  it('has no other writer: status is readonly on a row', () => {
    const r = row('pending');
    // @ts-expect-error status is readonly; only Lifecycle.transition writes it (tsc fails if that ever changes)
    r.status = 'active';
    expect(r.status).toBe('active'); // at run time a plain object; the guarantee is the compiler's
  });
});
