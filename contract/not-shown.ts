import { ROUTES } from './routes.ts';

// Each line of the spec that says "not shown", matched by a phrase unique to it, and the
// profile options (or lendcheck-v1 shapes) that answer it; `responses` is what the OpenAPI export
// says of a body the spec does not show (the fields `profile detect` recorded, else nothing). A test reads the spec and fails
// when a "not shown" line has no entry here, or an entry names an option that is missing.

export interface NotShownItem {
  /** A phrase that occurs in exactly one spec line. */
  phrase: string;
  /** Dotted paths into the profile; `shapes.<name>` points into contract/shapes.ts. */
  answers: string[];
}

export const NOT_SHOWN: NotShownItem[] = [
  { phrase: 'default in advanced mode: not shown', answers: ['lifecycle.autoRolloverAdvancedDefault'] },
  { phrase: 'the full list of allowed collateral and borrow assets', answers: ['assets.borrow', 'assets.collateral'] },
  { phrase: 'Enables auto-refinance; default: not shown', answers: ['lifecycle.autoRefinanceDefault'] },
  { phrase: 'The meaning of this object beyond these two fields', answers: ['cbt.amountBasis'] },
  {
    phrase: 'Other records: fields of the borrow-position response',
    answers: ['shapes.borrowPosition', 'shapes.repayResult', 'shapes.withdrawalRecord', 'shapes.vault', 'shapes.analyticsSeries', 'shapes.webhookRegistration', 'webhooks.registrationSecret', 'responses', 'bodies.fieldNames'],
  },
  { phrase: 'Transitions: not shown', answers: ['lifecycle.transitions', 'lifecycle.statusAfterFullRepay', 'lifecycle.statusAfterLiquidation'] },
  { phrase: 'Success status codes: not shown', answers: ['successStatus'] },
  { phrase: '| POST | /borrow |', answers: ['shapes.createBorrowResponse', 'responses'] },
  // An endpoint whose whole row is "not shown" is found by its path (the route list's).
  { phrase: ROUTES['position.repay'].path, answers: ['shapes.repayResult', 'lifecycle.repayOnLend', 'responses'] },
  { phrase: ROUTES['position.cancel'].path, answers: ['shapes.cancelResult', 'lifecycle.cancellable', 'responses'] },
  { phrase: '| PATCH | /positions/{positionId}', answers: ['shapes.patchResult', 'responses'] },
  { phrase: ROUTES['user.withdraw'].path, answers: ['shapes.withdrawalRecord', 'withdrawals.destinationPattern', 'responses'] },
  { phrase: 'Get-rates path: not shown', answers: ['ratesPath'] },
  { phrase: '| GET | /markets/{asset}/orderbook', answers: ['shapes.authOrderBook', 'orderbookPath', 'orderbookLevels.lends', 'orderbookLevels.borrows', 'responses'] },
  { phrase: 'whether optional or required: not shown', answers: ['webhooks.secretRequired', 'shapes.webhookRegistration', 'responses'] },
  { phrase: '| GET | /markets/rates |', answers: ['shapes.publicRates', 'publicEnvelope', 'responses'] },
  { phrase: '| GET | /analytics/tvl |', answers: ['shapes.analyticsSeries', 'markets.defaultPeriod', 'responses'] },
  { phrase: '| GET | /analytics/volume |', answers: ['shapes.analyticsSeries', 'responses'] },
  { phrase: '| GET | /analytics/rates |', answers: ['shapes.analyticsSeries', 'responses'] },
  { phrase: '| GET | /vaults | none', answers: ['shapes.vaultList', 'responses'] },
  { phrase: '| GET | /vaults/{id} |', answers: ['shapes.vault', 'responses'] },
  { phrase: 'Allowed values of `period`', answers: ['markets.periods'] },
  { phrase: 'which form applies to each endpoint', answers: ['publicEnvelope'] },
  { phrase: 'How keys are issued, rotated or scoped', answers: ['keys.issuance'] },
  { phrase: 'content of the other event types', answers: ['events.emitted', 'webhooks.matchedIncludesType', 'shapes.eventDataShapes'] },
  { phrase: 'The signing algorithm and the encoding', answers: ['signature.scheme', 'signature.toleranceSeconds'] },
  { phrase: 'What happens after the fifth retry fails', answers: ['webhooks.afterFinalRetry'] },
  {
    phrase: 'Codes for other conditions (unsupported asset',
    answers: ['errors.unsupportedAsset', 'errors.invalidState', 'errors.unknownUser'],
  },
  { phrase: 'How a key is assigned to a tier', answers: ['limits.tierAssignment', 'limits.defaultTier'] },
  { phrase: 'Meaning of burst and the unit of', answers: ['limits.burstMeaning', 'limits.resetUnit', 'limits.limitHeader'] },
  {
    phrase: 'Minimum and maximum order, collateral and withdrawal amounts',
    answers: ['amounts.minOrder', 'amounts.maxOrder', 'amounts.minWithdrawal', 'amounts.minCollateralRatio', 'amounts.pledgeTaken'],
  },
  { phrase: 'Deprecation and change policy', answers: ['versioning.deprecationPolicy'] },
];
