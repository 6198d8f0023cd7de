#!/usr/bin/env bash
# The install test: what a consumer gets from the registry. Packs the package, installs the
# tarball with --omit=dev into an empty directory outside the repository, and there runs
# the CLI (version, sandbox, conformance, chaos certify of the sample receiver), the library
# from plain Node, and a partner's typed msw test (which must fail with its server not
# listening). Exits non-zero on the first failure; .ci/run calls it.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/lendcheck-install-XXXXXX")"
pids=()
cleanup() {
  # Each background process leads its own process group (setsid), so the sandbox node that
  # npx starts goes with it; killing npx's pid alone left that sandbox running.
  for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null || kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
step() { echo "== install test: $* (at ${SECONDS} s)"; }
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
wait_http() { # url, seconds
  for _ in $(seq 1 $(($2 * 5))); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 0.2; done
  echo "no answer from $1 within $2 s" >&2; return 1
}

step "npm pack (builds dist/ through prepack)"
tgz="$(cd "$repo" && npm pack --silent --pack-destination "$work" | tail -1)"
mkdir "$work/app"
cd "$work/app"
# The machine's npm config (nodedir) is what lets better-sqlite3 build its native module
# without downloading headers; an empty project inherits it like any consumer would.
npm init -y >/dev/null
# better-sqlite3's native module: a consumer's install takes a prebuilt binary from the package's
# releases (prebuild-install). Where that download cannot be had (no route to GitHub here), it
# compiles SQLite from source: a minute of a core, in the middle of the static step, for a build
# `npm ci` has just made in this checkout for the same Node. So the checkout's binary is offered
# the way prebuild-install takes a downloaded one (its local-prebuilds directory), when its
# version is the one this install resolves; any other version still downloads or compiles.
# The installed package then loads it (the sandbox, startSandbox and the msw test below).
prebuilds="$work/prebuilds"
sqlite="$repo/node_modules/better-sqlite3"
if [ -f "$sqlite/build/Release/better_sqlite3.node" ]; then
  mkdir -p "$prebuilds"
  sqlite_tgz="better-sqlite3-v$(node -p "require('$sqlite/package.json').version")-node-v$(node -p 'process.versions.modules')-$(node -p 'process.platform')-$(node -p 'process.arch').tar.gz"
  tar -czf "$prebuilds/$sqlite_tgz" -C "$sqlite" build/Release/better_sqlite3.node
fi
step "npm install --omit=dev $tgz (in $work/app)"
npm_config_better_sqlite3_local_prebuilds="$prebuilds" npm install --omit=dev --no-audit --no-fund "$work/$tgz" >/dev/null
if [ -d node_modules/better-sqlite3/build/Release/obj.target ]; then echo "better-sqlite3 $(node -p "require('./node_modules/better-sqlite3/package.json').version"): compiled from source"
else echo "better-sqlite3 $(node -p "require('./node_modules/better-sqlite3/package.json').version"): the checkout's binary, as a local prebuild"; fi
test ! -e node_modules/tsx || { echo "tsx was installed as a runtime dependency" >&2; exit 1; }
test ! -e node_modules/typescript || { echo "typescript was installed as a runtime dependency" >&2; exit 1; }
# The lean install: what only some uses need is an optional peer, never pulled by lendcheck itself.
for peer in vitest echarts testcontainers msw; do
  test ! -e "node_modules/$peer" || { echo "$peer was installed with lendcheck; it is an optional peer" >&2; exit 1; }
done
node -e "const s=require('./node_modules/lendcheck/package.json').scripts||{};const bad=['preinstall','install','postinstall','prepare'].filter(k=>s[k]);if(bad.length){console.error('the published package.json carries install scripts: '+bad.join(', '));process.exit(1)}"
echo "installed: $(du -sh node_modules | cut -f1), $(ls -d node_modules/*/package.json node_modules/@*/*/package.json 2>/dev/null | wc -l) top-level packages"

step "npx lendcheck --version"
v="$(npx --no-install lendcheck --version)"
want="$(node -p "require('$repo/package.json').version")"
[ "$v" = "$want" ] || { echo "version: expected $want, received $v" >&2; exit 1; }

step "npx lendcheck sandbox answers GET /v1/markets"
port="$(free_port)"
setsid npx --no-install lendcheck sandbox --port "$port" --db ":memory:" >"$work/sandbox.log" 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$port/v1/markets" 60
curl -fsS "http://127.0.0.1:$port/v1/markets" | node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const j=JSON.parse(s);if(!Array.isArray(j.markets)||!j.markets.length){console.error('markets: expected a non-empty markets list, received '+s.slice(0,200));process.exit(1)}})"

step "npx lendcheck conformance without vitest (an optional peer) names it, exit 2"
set +e
npx --no-install lendcheck conformance --base-url "http://127.0.0.1:$port/v1" --api-key ck_test_partner_a_growth --only 'endpoint.*' >"$work/no-vitest.out" 2>&1
code=$?
set -e
[ "$code" = 2 ] && grep -q 'npm i -D vitest' "$work/no-vitest.out" || { echo "expected exit 2 naming vitest, received $code:" >&2; cat "$work/no-vitest.out" >&2; exit 1; }

# One install for the rest: the optional peers a partner's msw test needs (vitest runs the
# conformance suite too) and the compiler for the type checks.
versions() { node -p "const p=require('$repo/package.json');['vitest','msw'].map(n=>n+'@'+p.peerDependencies[n]).concat(['typescript','@types/node'].map(n=>n+'@'+p.devDependencies[n])).join(' ')"; }
step "npm install $(versions)"
# shellcheck disable=SC2046
npm install --no-audit --no-fund $(versions) >/dev/null

# The shipped suite runs under Vitest from dist/ (what this step proves); the endpoint, auth and
# error checks are enough for that. The whole suite runs from the sources in npm test (2.5 min here).
step "npx lendcheck conformance against it (endpoint, auth and error checks)"
npx --no-install lendcheck conformance --base-url "http://127.0.0.1:$port/v1" --api-key ck_test_partner_a_growth \
  --api-key-2 ck_test_partner_b_growth --burst-key ck_test_partner_a_starter --only 'endpoint.*,auth.*,errors.*' --reporter dot --report-dir "$work/reports"

step "npx lendcheck chaos certify of the sample receiver"
rport="$(free_port)"
secret="whsec_install_test_$RANDOM$RANDOM"
sample=node_modules/lendcheck/dist/examples/receivers/sample.js
WEBHOOK_SECRET="$secret" PORT="$rport" node "$sample" >"$work/receiver.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do grep -q listening "$work/receiver.log" && break; sleep 0.2; done
LENDCHECK_WEBHOOK_SECRET="$secret" npx --no-install lendcheck chaos certify --url "http://127.0.0.1:$rport/webhooks" \
  --burst 10 --source "$sample" --report-dir "$work/reports"

step "plain node imports verifyWebhook from 'lendcheck'"
node --input-type=module -e "
import { signWebhook, verifyWebhook } from 'lendcheck';
const body = '{\"id\":\"evt_1\",\"type\":\"position.created\"}';
const header = signWebhook(body, 'whsec_x', { timestamp: 1800000000 });
const ok = verifyWebhook(body, header, 'whsec_x', { now: 1800000010 });
const bad = verifyWebhook(body.replace('1', '2'), header, 'whsec_x', { now: 1800000010 });
if (!ok.ok || bad.ok) { console.error('verifyWebhook: expected ok then mismatch, received', ok, bad); process.exit(1); }
console.log('verifyWebhook from the installed package:', JSON.stringify(ok), JSON.stringify(bad));
"
node -e "import('lendcheck').then(m => { if (typeof m.verifyWebhook !== 'function' || typeof m.startSandbox !== 'function') process.exit(1) })"

step "plain node starts the sandbox with startSandbox from 'lendcheck'"
node --input-type=module -e "
import { startSandbox } from 'lendcheck';
const s = await startSandbox({ port: 0 });
const r = await fetch(s.url + '/markets');
await s.close();
if (r.status !== 200) { console.error('startSandbox: expected GET /markets 200, received', r.status); process.exit(1); }
console.log('startSandbox from the installed package:', s.url);
"

step "lendcheck/msw from plain node"
node --input-type=module -e "
import { setupServer } from 'msw/node';
import { createMswSandbox } from 'lendcheck/msw';
const sandbox = createMswSandbox();
const server = setupServer(...sandbox.handlers);
server.listen({ onUnhandledRequest: 'error' });
const r = await fetch(sandbox.baseUrl + '/lend', { method: 'POST', headers: { authorization: 'Bearer ' + sandbox.key(), 'content-type': 'application/json' }, body: JSON.stringify({ userId: 'u1', asset: 'USDC', amount: '10', rate: 0.05, maturity: '30d' }) });
await sandbox.clock.advance('1d');
server.close();
await sandbox.close();
if (r.status !== 201) { console.error('lendcheck/msw: expected POST /lend 201, received', r.status, await r.text()); process.exit(1); }
console.log('lendcheck/msw from the installed package: POST /lend', r.status);
"

step "the types of 'lendcheck' and 'lendcheck/msw' resolve (tsc in the consumer project)"
cat > types-check.mts <<'TS'
import { startSandbox, type StartedSandbox } from 'lendcheck';
import { createMswSandbox, type MswSandbox } from 'lendcheck/msw';
const sandbox: MswSandbox = createMswSandbox({ rateLimits: { tiers: ['starter'] } });
const advanced: Promise<void> = sandbox.clock.advance('30d');
const started: Promise<StartedSandbox> = startSandbox({ port: 0, profile: undefined });
// @ts-expect-error: port must be a number
startSandbox({ port: '0' });
export { advanced, started };
TS
npx --no-install tsc --noEmit --strict --module nodenext --moduleResolution nodenext --target es2022 --types node types-check.mts

# testcontainers is an optional peer, not installed here: its entry says which package is missing.
step "'lendcheck/matchers' from plain node; 'lendcheck/testcontainers' names the missing testcontainers"
node --input-type=module -e "
import { assertCleanPartnerReport, installPartnerMatchers } from 'lendcheck/matchers';
if (typeof assertCleanPartnerReport !== 'function' || typeof installPartnerMatchers !== 'function') { console.error('lendcheck/matchers: expected assertCleanPartnerReport and installPartnerMatchers'); process.exit(1); }
try { await import('lendcheck/testcontainers'); console.error('lendcheck/testcontainers loaded without testcontainers'); process.exit(1); }
catch (e) { if (!String(e.message).includes(\"'testcontainers'\")) { console.error('lendcheck/testcontainers: expected an error naming testcontainers, received', e.message); process.exit(1); } }
"
test -f node_modules/lendcheck/dist/sandbox/testcontainers/index.d.ts || { echo "lendcheck/testcontainers: no .d.ts in the tarball" >&2; exit 1; }

# A partner's test as docs/partners.md writes one: typed bodies (lendcheck/types), a profile with one
# field changed (lendcheck/profile), the typed client, the matchers. Run, it passes; run again with
# its msw server not listening, it must fail (nothing reached the sandbox).
step "a partner's typed msw test: passes, type-checks, and fails with the server not listening"
cat > partner.test.mts <<'TS'
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMswSandbox } from 'lendcheck/msw';
import { defineProfile } from 'lendcheck/profile';
import { installPartnerMatchers } from 'lendcheck/matchers';
import type { CreateLendResponse, LendRequest, MarketList, Position } from 'lendcheck/types';

installPartnerMatchers(expect);
declare module 'vitest' { interface Matchers<T = any> { toHaveNoPartnerFindings(): T } }

const profile = defineProfile({ markets: { idSeparator: ':' } });
const sandbox = createMswSandbox({ profile });
const server = setupServer(...sandbox.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(async () => { server.close(); await sandbox.close(); });

it('lends with a typed body and reads it back through the typed client', async () => {
  const body: LendRequest = { userId: 'u1', asset: 'USDC', amount: '100', maturity: '30d' };
  const res = await fetch(`${sandbox.baseUrl}/lend`, { method: 'POST', headers: { authorization: `Bearer ${sandbox.key()}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(201);
  const placed = (await res.json()) as CreateLendResponse;
  const read: Position = await sandbox.client().position(placed.positionId);
  expect(read.amount).toBe('100');
  const markets: MarketList = await sandbox.client().markets();
  expect(markets.markets.map((m) => m.id)).toContain('USDC:30d');
  expect(await sandbox.partnerReport()).toHaveNoPartnerFindings();
});
TS
npx --no-install vitest run partner.test.mts
sed 's/server\.listen(/void (/' partner.test.mts > no-listen.test.mts
if npx --no-install vitest run no-listen.test.mts >"$work/no-listen.out" 2>&1; then
  echo "the partner test passed with its msw server not listening:" >&2; cat "$work/no-listen.out" >&2; exit 1
fi
rm no-listen.test.mts
npx --no-install tsc --noEmit --strict --module nodenext --moduleResolution nodenext --target es2022 --types node --skipLibCheck partner.test.mts
step "passed"
