import { Decimal as DecimalJs } from 'decimal.js';

// The suites' decimal: decimal.js with enough significant digits for any amount the interface
// carries. decimal.js rounds every result to 20 significant digits by default, and an asset
// with 18 decimals holding a million units already needs 25: a model that rounded there would
// read a correct target's last units as money vanishing. No exponent notation in toString.
export const Decimal = DecimalJs.clone({ precision: 80, toExpNeg: -80, toExpPos: 80 });
export type Decimal = DecimalJs;
