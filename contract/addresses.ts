// Withdrawal destination forms. The spec says only "string address" (part 4), so the
// profile's withdrawals.destinationPattern holds the target's choice. These are the forms
// a target is likely to take, each with one address that fits it: the suites withdraw to
// the sample of the form the profile names, and `profile detect` finds which form a target
// takes by which samples it refuses naming destination.

export interface AddressForm {
  name: string;
  /** The exact pattern a profile names for this form. */
  pattern: string;
  sample: string;
}

export const ADDRESS_FORMS: readonly AddressForm[] = [
  { name: 'EVM address', pattern: '^0x[0-9a-fA-F]{40}$', sample: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e' },
  { name: 'Bitcoin bech32', pattern: '^bc1[02-9ac-hj-np-z]{11,71}$', sample: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
  { name: 'Solana base58', pattern: '^[1-9A-HJ-NP-Za-km-z]{32,44}$', sample: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T' },
  { name: 'IBAN', pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$', sample: 'GB82WEST12345698765432' },
];

/** An address the profile's pattern takes: a known form's sample, else undefined. */
export function addressFor(pattern: string): string | undefined {
  const re = new RegExp(pattern);
  return ADDRESS_FORMS.find((f) => f.pattern === pattern)?.sample ?? ADDRESS_FORMS.find((f) => re.test(f.sample))?.sample;
}
