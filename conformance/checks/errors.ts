import { Decimal } from '../../contract/decimal.ts';
import { endpointBody, errorBody, LIST_LIMIT_MAX, patchPositionRequest, repayRequest, resolveCall, webhookSubscription, withdrawRequest, type LooseBody, type Profile } from '../../contract/index.ts';
import { bodyCases, type BodyCase } from '../cases.ts';
import { queryCases, type QueryCase } from '../query-cases.ts';
import { CheckSkip, expectClientError, expectError, expectProfileError, fail, show, type Check, type CheckContext, pass } from '../check.ts';
import type { Reply } from '../http.ts';
import { casesToSend } from './sent-values.ts';
import { bodyClass, loggedAnswer, pathClass, queryClass, queryMax, recordClass } from './answered-classes.ts';
import { borrowBody, fund, fundedUser, knownUser, lendBody, profileGap, refusesField, sharedBorrow, sharedLend, validAddress } from './fixtures.ts';
import { callById, templateOf } from './call-by-id.ts';
import { authBookSides, SIDES } from './book-levels.ts';

// Part 7: each documented error code, provoked on purpose. invalid_request is generated
// field rule by field rule from the contract's request schemas (see cases.ts).

function messageNames(ctx: CheckContext, r: Reply, field: string): void {
  const msg = (r.json as { error?: { message?: string } })?.error?.message ?? '';
  const last = field.split('.').pop()!;
  if (!msg.includes(last)) ctx.note(`the invalid_request message for ${field} does not name the field: ${show(msg)}`);
}

async function expectInvalid(
  ctx: CheckContext,
  cases: BodyCase[],
  send: (body: unknown) => Promise<Reply>,
  where: string,
  /** Cases whose code the profile gives (e.g. an unsupported asset), with the option name. */
  profileCode?: (c: BodyCase) => { choice: { code: string; status: number }; option: string } | undefined,
  /** The endpoint and its body schema: each answer is recorded under its malformed class, for the fuzz corpus to judge its own cases of that class by (answered-classes.ts). */
  of?: { endpoint: string; schema: Parameters<typeof bodyClass>[1] },
): Promise<void> {
  if (!cases.length) fail(`invalid cases for ${where}`, 'at least one generated case', 'none');
  for (const c of casesToSend(ctx, cases)) {
    const r = await send(c.body);
    if (of) recordClass(ctx, bodyClass(of.endpoint, of.schema, c.body), { reply: r, value: c.body, what: `${where} with ${c.what} (errors.invalid.*)` });
    const p = profileCode?.(c);
    if (p) {
      expectProfileError(ctx, r, p.choice, p.option, `${where} with ${c.what}${cites(c.requirements)}`);
      continue;
    }
    expectError(r, 'invalid_request', 400, `${where} with ${c.what}${cites(c.requirements)}`);
    messageNames(ctx, r, c.field);
  }
}

// CONV-maturity-input binds the bodies with a maturity (lend, borrow) only: issue 47's binding test.
const FIELD_REQ = ['ERR-invalid_request', 'SHAPE-error'];

/** The requirement ids a generated case breaks, as a failure names them. */
const cites = (ids?: string[]) => (ids?.length ? ` (${ids.join(', ')})` : '');

/** What a generated query case may get (query-cases.ts says why each). */
function judgeQueryCase(ctx: CheckContext, c: QueryCase, r: Reply, title: string): void {
  const ok = r.status >= 200 && r.status < 300;
  if (c.expect === 'invalid') return void expectError(r, 'invalid_request', 400, title);
  // An empty value may fairly be read as the parameter left out.
  if (c.expect === 'blank') return void (ok || expectError(r, 'invalid_request', 400, `${title}: refused as malformed, or read as absent`));
  if (c.expect === 'no-match') {
    if (!ok) return void expectError(r, 'invalid_request', 400, `${title}: refused as malformed, or matching nothing`);
    // Read as a filter, it matches no market: both sides of the book are empty (the keyed book's sides where the profile says, book-levels.ts).
    const { sides } = authBookSides(ctx.profile, r.json);
    const read = SIDES.filter((s) => sides[s]);
    if (!read.length) return void ctx.note(`${title}: answered ${r.status}, and no side of the book could be read for levels (orderbookLevels): whether it matched nothing was not judged`);
    const n = read.reduce((k, s) => k + sides[s]!.length, 0);
    if (n) fail(`${title}: taken as a filter, it matches no market`, 'a 400 invalid_request, or an empty book', `${n} levels`, r.exchange);
    return;
  }
  // Past a maximum: the spec's 100 for limit, the profile's for depth; what it gets is the profile's (a note when it differs).
  const seen = ok ? 'taken' : 'refused';
  if (ok && c.field === 'limit') {
    const n = (r.json as { positions?: unknown[] })?.positions?.length ?? 0;
    if (n > LIST_LIMIT_MAX) fail(`${title}: not honoured (maximum ${LIST_LIMIT_MAX})`, `a 400, or ≤ ${LIST_LIMIT_MAX} positions`, `${n} positions`, r.exchange);
  }
  if (!ok) expectClientError(r, title);
  const option = c.field === 'limit' ? 'pagination.overMax' : 'bounds.orderbookMaxDepth';
  const want = c.field === 'limit' ? (ctx.profile.pagination.overMax === 'reject' ? 'refused' : 'taken') : 'refused';
  ctx.profileChoice({ option, expected: want, followed: seen === want, received: `${seen} (${r.status})` }, r.exchange);
}

export function errorChecks(profile: Profile): Check[] {
  return [
    {
      id: 'errors.invalid.lend',
      title: 'POST /lend refuses each broken field rule (types, the asset enum and its neighbours such as a collateral asset, decimals, rate, maturity forms, mode) with 400 invalid_request, or the profile\'s code for an unsupported asset',
      requirements: [...FIELD_REQ, 'CONV-maturity-input', 'FIELD-lend-userId', 'FIELD-lend-asset', 'FIELD-lend-amount', 'FIELD-lend-rate', 'FIELD-lend-maturity', 'FIELD-lend-mode', 'FIELD-lend-autoRollover'],
      needs: ['write'],
      async run(ctx) {
        const u = await fundedUser(ctx, 'inv-lend');
        // An asset valid elsewhere (a collateral asset) is asked for the smallest order the profile allows: a service
        // that took it as a lend asset must not hide behind the user's smaller balance of it (insufficient_funds is a 4xx too).
        const cases = bodyCases(endpointBody(ctx.profile, 'lend.create'), lendBody(ctx, u), { profile: ctx.profile, endpoint: 'lend.create' }).map((c) =>
          c.kind === 'neighbour' ? { ...c, body: { ...(c.body as object), amount: profile.amounts.minOrder } } : c,
        );
        // A date in the past cannot be a maturity; and the non-JSON-object bodies.
        cases.push({ field: 'maturity', what: 'maturity as a past ISO date', body: lendBody(ctx, u, { maturity: '2000-01-01' }) });
        // A string asset outside the list (an empty one too: malformed or unsupported, both fair readings) is the
        // spec's "unsupported asset", whose code part 7 leaves open: any 4xx with the error object, the profile's code noted.
        const unsupported = (c: BodyCase) => c.field === 'asset' && typeof (c.body as { asset?: unknown }).asset === 'string';
        await expectInvalid(ctx, cases, (body) => ctx.call('lend.create', { body: body as LooseBody }), 'POST /lend', (c) => (unsupported(c) ? { choice: profile.errors.unsupportedAsset, option: 'errors.unsupportedAsset' } : undefined), { endpoint: 'lend.create', schema: endpointBody(ctx.profile, 'lend.create') });
        return pass();
      },
    },
    {
      id: 'errors.invalid.borrow',
      title: 'POST /borrow refuses each broken field rule (collateral object, assets, decimals, rate, maturity) with 400 invalid_request',
      requirements: [...FIELD_REQ, 'CONV-maturity-input', 'FIELD-borrow-userId', 'FIELD-borrow-collateral', 'FIELD-borrow-borrowAsset', 'FIELD-borrow-borrowAmount', 'FIELD-borrow-rate', 'FIELD-borrow-maturity', 'FIELD-borrow-autoRefinance'],
      needs: ['write'],
      async run(ctx) {
        const u = await fundedUser(ctx, 'inv-borrow');
        const valid = borrowBody(ctx, u);
        const cases = bodyCases(endpointBody(ctx.profile, 'borrow.create'), valid, { profile: ctx.profile, endpoint: 'borrow.create' });
        await expectInvalid(ctx, cases, (body) => ctx.call('borrow.create', { body: body as LooseBody }), 'POST /borrow', undefined, { endpoint: 'borrow.create', schema: endpointBody(ctx.profile, 'borrow.create') });
        // Assets outside the profile's lists: the code is a profile choice (spec part 7 "unsupported asset").
        const ua = profile.errors.unsupportedAsset;
        for (const [field, body] of [
          ['borrowAsset', { ...valid, borrowAsset: 'NOTANASSET' }],
          ['collateral.asset', { ...valid, collateral: { asset: 'NOTANASSET', amount: '1' } }],
        ] as const) {
          const r = await ctx.call('borrow.create', { body });
          expectProfileError(ctx, r, ua, 'errors.unsupportedAsset', `POST /borrow with an unsupported ${field}`);
        }
        return pass();
      },
    },
    {
      id: 'errors.invalid.withdraw',
      title: 'POST /users/{userId}/withdraw refuses a missing or malformed asset, amount or destination with 400 invalid_request',
      requirements: [...FIELD_REQ, 'EP-withdraw'],
      needs: ['write'],
      async run(ctx) {
        const u = await fundedUser(ctx, 'inv-withdraw');
        const valid = { asset: 'USDC', amount: '1', destination: validAddress(ctx.profile) };
        const cases = bodyCases(withdrawRequest, valid, { profile: ctx.profile, endpoint: 'user.withdraw' });
        await expectInvalid(ctx, cases, (body) => ctx.call('user.withdraw', { params: { userId: u }, body: body as LooseBody }), 'POST /users/{userId}/withdraw', undefined, { endpoint: 'user.withdraw', schema: withdrawRequest });
        // Part 4 gives the destination as a "string address", no form: a string outside the profile's
        // withdrawals.destinationPattern refused is the target's choice, noted (a failure under --strict),
        // never a rule. Not a short hex ('0x123'): a check without a length bound takes the long one too,
        // one without the hex test takes the word (issue 48).
        const pattern = new RegExp(profile.withdrawals.destinationPattern);
        for (const bad of ['not-an-address', `${validAddress(ctx.profile)}00`].filter((d) => !pattern.test(d))) {
          const r = await ctx.call('user.withdraw', { params: { userId: u }, body: { ...valid, destination: bad } });
          if (r.status >= 500) fail(`POST /users/{userId}/withdraw with destination ${JSON.stringify(bad)} never gets a 5xx`, 'a 2xx or a 4xx with the error object', `${r.status} ${show(r.json ?? r.text)}`, r.exchange);
          const refused = r.status >= 400 && r.status < 500;
          if (refused) expectClientError(r, `POST /users/{userId}/withdraw refusing destination ${JSON.stringify(bad)}`);
          ctx.profileChoice({ option: 'withdrawals.destinationPattern', expected: `refused (outside ${profile.withdrawals.destinationPattern})`, followed: refused, received: `${r.status}` }, r.exchange);
        }
        return pass();
      },
    },
    {
      id: 'errors.invalid.repay',
      title: 'POST /positions/{positionId}/repay refuses a malformed amount with 400 invalid_request',
      requirements: [...FIELD_REQ, 'EP-repay'],
      needs: ['write'],
      async run(ctx) {
        const b = await sharedBorrow(ctx);
        await expectInvalid(ctx, bodyCases(repayRequest, { amount: '1' }, { profile: ctx.profile, endpoint: 'position.repay' }), (body) => ctx.call('position.repay', { params: { positionId: b.positionId }, body: body as LooseBody }), 'POST /positions/{positionId}/repay');
        return pass();
      },
    },
    {
      id: 'errors.invalid.patch',
      title: 'PATCH /positions/{positionId} refuses non-boolean flags and an empty body with 400 invalid_request',
      requirements: [...FIELD_REQ, 'EP-patch'],
      needs: ['write'],
      async run(ctx) {
        const own = await sharedLend(ctx);
        const cases = bodyCases(patchPositionRequest, { autoRollover: true, autoRefinance: false }, { profile: ctx.profile, endpoint: 'position.patch' });
        cases.push({ field: 'autoRollover', what: 'an empty body', body: {} });
        await expectInvalid(ctx, cases, (body) => ctx.call('position.patch', { params: { positionId: own.positionId }, body: body as LooseBody }), 'PATCH /positions/{positionId}', undefined, { endpoint: 'position.patch', schema: patchPositionRequest });
        return pass();
      },
    },
    {
      id: 'errors.invalid.webhooks',
      title: 'POST /webhooks refuses a bad url, unknown or empty events and a secret without whsec_ with 400 invalid_request',
      requirements: [...FIELD_REQ, 'EP-webhooks', 'HOOK-secret-prefix'],
      needs: ['write'],
      async run(ctx) {
        const valid = { url: 'http://127.0.0.1:9/lendcheck-discard', events: ['position.created'] };
        await expectInvalid(ctx, bodyCases(webhookSubscription, valid, { profile: ctx.profile, endpoint: 'webhooks.create' }), (body) => ctx.call('webhooks.create', { body: body as LooseBody }), 'POST /webhooks', undefined, { endpoint: 'webhooks.create', schema: webhookSubscription });
        return pass();
      },
    },
    {
      id: 'errors.invalid.query',
      title: 'the position list and order book refuse the generated edge cases of status, type, limit, depth and maturity (enum neighbours, case variants, bounds ±1, near-miss formats) with 400 invalid_request',
      requirements: ['ERR-invalid_request', 'SHAPE-error', 'QUERY-list-status', 'QUERY-list-type', 'STATE-status-values', 'PAGE-limit-applied', 'PAGE-limit-max', 'BOOK-depth', 'BOOK-maturity-filter', 'EP-orderbook-auth'],
      async run(ctx) {
        // A user the target knows: for an unseen one it may answer position_not_found first (profile errors.unknownUser).
        const { userId: u, fresh } = await knownUser(ctx, 'inv-query');
        // Each generated case's endpoint, called by its id, and how a failure names it (the list by its template, the book by its asset).
        const book = resolveCall(ctx.profile, 'orderbook.get', { asset: 'USDC' });
        const sends: Record<string, [(query: Record<string, string>) => Promise<Reply>, string]> = {
          'positions.list': [(query) => ctx.call('positions.list', { params: { userId: u }, query }), templateOf(ctx.profile, 'positions.list')],
          'orderbook.get': [(query) => ctx.call('orderbook.get', { params: { asset: 'USDC' }, query }), `${book.method} ${book.path}`],
        };
        // A cursor never issued is pagination.bad-cursor's (three of them, held to the same 400 invalid_request): not sent again here (issue 48).
        const cases: QueryCase[] = queryCases(ctx.profile).filter((c) => c.expect !== 'valid');
        if (!cases.length) fail('generated query cases', 'at least one case', 'none');
        for (const c of casesToSend(ctx, cases, (q) => q.value)) {
          const [send, label] = sends[c.endpoint]!;
          const title = `${label} with ${c.what}${cites(c.requirements)}`;
          // The same parameter and value already asked this run (pagination.max-limit's limit=101): that answer is judged.
          const logged = loggedAnswer(ctx, c.endpoint, { [c.field]: c.value });
          if (logged) ctx.note(`${title}: not sent again, judged from the answer the run already got for it (${logged.exchange.method} ${logged.exchange.url.replace(/^https?:\/\/[^/]+/, '')} → ${logged.status})`);
          const r = logged ?? (await send({ [c.field]: c.value }));
          recordClass(ctx, queryClass(c.endpoint, c.field, c.value, queryMax(ctx.profile, c.field)), { reply: r, value: c.value, what: `${title} (errors.invalid.query)` });
          if (fresh && c.endpoint === 'positions.list' && r.status === 404 && ctx.profile.errors.unknownUser === 'position_not_found') {
            ctx.note(`${title}: not seen, a read-only run has no user the target knows (errors.unknownUser is position_not_found)`);
            continue;
          }
          judgeQueryCase(ctx, c, r, title);
        }
        return pass();
      },
    },
    {
      id: 'errors.insufficient-funds',
      title: 'a lend or withdrawal above the available balance gets 400 insufficient_funds with details.required and details.available as exact decimal strings',
      requirements: ['ERR-insufficient_funds', 'ERR-insufficient_funds-details', 'CONV-amount-decimal'],
      needs: ['write'],
      async run(ctx) {
        const u = ctx.user('poor');
        // With controls the exact balance is known; without, ask for the largest order the profile allows.
        let available: string | undefined;
        if (ctx.hasControls) {
          await fund(ctx, u, 'USDC', '50.25');
          const b = await ctx.call('sandbox.balances', { params: { userId: u } });
          available = (b.json as { balances?: Array<{ asset: string; available: string }> })?.balances?.find((x) => x.asset === 'USDC')?.available;
          if (!available) fail('the balances control lists USDC after funding', 'a USDC balance', show(b.json), b.exchange);
        }
        const over = (extra: string) => (available ? new Decimal(available).plus(extra).toFixed() : profile.amounts.maxOrder);
        const lendAmount = over('100');
        const withdrawAmount = over('0.5');
        for (const [what, send, required] of [
          [`POST /lend of ${lendAmount}${available ? ` with ${available} available` : ''}`, () => ctx.call('lend.create', { body: lendBody(ctx, u, { amount: lendAmount }) }), lendAmount],
          [`POST /users/{userId}/withdraw of ${withdrawAmount}${available ? ` with ${available} available` : ''}`, () => ctx.call('user.withdraw', { params: { userId: u }, body: { asset: 'USDC', amount: withdrawAmount, destination: validAddress(ctx.profile) } }), withdrawAmount],
        ] as const) {
          const r = await send();
          if (!available && refusesField(r, /amount/) && /most|max/.test(JSON.stringify(r.json))) profileGap(ctx, 'amounts.maxOrder', r, what);
          if (refusesField(r, /maturity/)) profileGap(ctx, 'markets.maturities', r, what);
          if (!available && r.status >= 200 && r.status < 300) throw new CheckSkip(`the target accepted ${what} for a fresh user, and has no sandbox controls to learn or lower its balance`, 'target-lacks');
          const err = expectError(r, 'insufficient_funds', 400, what);
          const d = err.details as { required?: unknown; available?: unknown } | undefined;
          // Part 7 calls details optional: none given is the target's choice where the profile says so or does not
          // know (null: undetected under a small budget, mutator seed 20 under Starter), noted; details given hold decimal strings.
          if (d === undefined && ctx.profile.errors.insufficientFundsDetails !== true) {
            ctx.profileChoice({ option: 'errors.insufficientFundsDetails', expected: String(ctx.profile.errors.insufficientFundsDetails), followed: ctx.profile.errors.insufficientFundsDetails === false, received: 'no details' }, r.exchange);
            continue;
          }
          for (const k of ['required', 'available'] as const) {
            const v = d?.[k];
            if (typeof v !== 'string' || !/^(0|[1-9]\d*)(\.\d+)?$/.test(v)) fail(`${what}: details.${k} is a decimal string`, 'a non-negative decimal string', show(v), r.exchange);
          }
          if (!new Decimal(d!.required as string).eq(required)) fail(`${what}: details.required is the amount asked for, exactly`, required, show(d!.required), r.exchange);
          if (available && !new Decimal(d!.available as string).eq(available)) fail(`${what}: details.available is the balance, exactly`, available, show(d!.available), r.exchange);
          if (!new Decimal(d!.available as string).lt(d!.required as string)) fail(`${what}: details.available is below details.required`, `< ${show(d!.required)}`, show(d!.available), r.exchange);
        }
        return pass();
      },
    },
    {
      id: 'errors.position-not-found',
      title: 'reading, cancelling, repaying or changing a position that does not exist gets 404 position_not_found',
      requirements: ['ERR-position_not_found', 'SHAPE-error'],
      async run(ctx) {
        const id = `${ctx.runId}-missing`;
        const calls: Array<['position.get' | 'position.cancel' | 'position.repay' | 'position.patch', LooseBody | undefined]> = [['position.get', undefined]];
        if (!ctx.readOnly) calls.push(['position.cancel', undefined], ['position.repay', {}], ['position.patch', { autoRollover: true }]);
        for (const [endpoint, body] of calls) {
          const r = await callById(ctx, endpoint, { params: { positionId: id }, body });
          if (endpoint === 'position.get') recordClass(ctx, pathClass(endpoint, id), { reply: r, value: id, what: `GET /positions/{unknown id} (errors.position-not-found)` });
          expectError(r, 'position_not_found', 404, templateOf(ctx.profile, endpoint).replace('{positionId}', '{unknown id}'));
        }
        return pass();
      },
    },
    {
      id: 'errors.internal-error-shape',
      title: 'every 500 seen during the run carries the error object with code internal_error',
      requirements: ['ERR-internal_error', 'SHAPE-error'],
      phase: 'final',
      judgesRun: true,
      async run(ctx) {
        const fives = ctx.http.log.filter((x) => x.status === 500);
        for (const x of fives) {
          let body: unknown;
          try {
            body = JSON.parse(x.responseBody ?? '');
          } catch {
            body = x.responseBody;
          }
          const p = errorBody.safeParse(body);
          if (!p.success || (body as { error: { code: string } }).error.code !== 'internal_error') {
            fail('a 500 carries {error:{code:"internal_error",message}}', 'code internal_error in the error object', show(body), x);
          }
        }
        ctx.note(fives.length ? `${fives.length} answers of 500 seen, each with the internal_error body` : `no 500 seen in ${ctx.http.log.filter((x) => x.status !== null).length} answers (the shape is checked whenever one occurs)`);
        return pass();
      },
    },
  ];
}

