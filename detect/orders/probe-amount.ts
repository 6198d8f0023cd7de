import { Decimal } from '../../contract/decimal.ts';
import type { Probe } from '../probe.ts';

// The amounts detection's probes send: the order bounds are searched early (amounts.ts
// orderBoundsDetector), and every later lend or borrow asks here, so a target whose minimum order
// is 100 is not sent 10 (issue 47, cause 4).

/**
 * An order amount for a detector's probe: its own `base`, raised to the minimum order found so far
 * and kept within the maximum (the probes' amounts come from the bounds, as every check's do).
 */
export function probeAmount(p: Probe, base = '10'): string {
  const min = p.found.get('amounts.minOrder')?.value;
  const max = p.found.get('amounts.maxOrder')?.value;
  let v = new Decimal(base);
  if (typeof min === 'string' && v.lt(min)) v = new Decimal(min);
  if (typeof max === 'string' && v.gt(max)) v = new Decimal(max);
  return v.toFixed();
}

/**
 * A withdrawal amount for a detector's probe: its own `base`, raised to the minimum withdrawal
 * found (withdrawalBoundDetector runs first). Withdrawals have no maximum in the profile.
 */
export function probeWithdrawal(p: Probe, base = '10'): string {
  const min = p.found.get('amounts.minWithdrawal')?.value;
  const v = new Decimal(base);
  return (typeof min === 'string' && v.lt(min) ? new Decimal(min) : v).toFixed();
}
