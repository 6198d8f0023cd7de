import { EVENT_TYPES, type Profile } from '../../contract/index.ts';
import { ROUTES, type Method, type RouteId } from '../../contract/routes.ts';

// The console's one page, rendered on the server: layout, forms and empty tables. The script
// (client-script.ts) fills the tables from the API with the key the user types; the key lives
// in the tab's sessionStorage only, never in this HTML. What the page needs of the profile
// (its actions' routes, assets, maturities) is inlined as JSON; none of it is secret.

/** The endpoints the console's actions call (client-script.ts), by their ids in the route list. */
export const CONSOLE_ENDPOINTS = ['lend.create', 'borrow.create', 'sandbox.fund', 'sandbox.clock.advance', 'sandbox.trigger', 'sandbox.resend', 'sandbox.webhook.pause', 'sandbox.webhook.resume'] as const satisfies readonly RouteId[];
export type ConsoleEndpoint = (typeof CONSOLE_ENDPOINTS)[number];

export interface ConsoleConfig {
  ratesPath: string;
  /** Each action's method and path template, from the route list, so the script names endpoints and writes out no path. */
  routes: Record<ConsoleEndpoint, { method: Method; path: string }>;
  assets: string[];
  collateralAssets: string[];
  maturities: string[];
  eventTypes: string[];
  controls: boolean;
  profile: string;
  /** Poll period of the live view, ms. */
  pollMs: number;
}

export function consoleConfig(profile: Profile, controls: boolean): ConsoleConfig {
  // The spec's lend assets are the borrowable ones (profile assets.borrow says so).
  const assets = profile.assets.borrow;
  return {
    ratesPath: profile.ratesPath ?? ROUTES['rates.get'].path, // never null here: createSandbox refuses it
    routes: Object.fromEntries(CONSOLE_ENDPOINTS.map((id) => [id, { method: ROUTES[id].method, path: ROUTES[id].path }])) as ConsoleConfig['routes'],
    assets,
    collateralAssets: profile.assets.collateral,
    maturities: profile.markets.maturities,
    eventTypes: [...EVENT_TYPES],
    controls,
    profile: profile.name,
    pollMs: 1000,
  };
}

// Five replacements are the whole of HTML text escaping; the report's escaper is not imported
// because the sandbox depends on nothing downstream of it (reports/ reads results only).
const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESC[c]);

const options = (xs: string[]) => xs.map((x) => `<option>${escapeHtml(x)}</option>`).join('');

const CSS = `
*{box-sizing:border-box}body{margin:0;font:13px/1.4 system-ui,sans-serif;background:#f4f5f7;color:#1d2330}
header{display:flex;gap:16px;align-items:center;padding:10px 18px;background:#1d2330;color:#fff;flex-wrap:wrap}
header h1{font-size:16px;margin:0 12px 0 0}header .muted{color:#aab}
main{display:grid;grid-template-columns:repeat(auto-fit,minmax(560px,1fr));gap:14px;padding:14px}
section{background:#fff;border:1px solid #dde;border-radius:6px;padding:10px 12px;min-width:0;overflow-x:auto}
section.wide{grid-column:1/-1}h2{font-size:14px;margin:0 0 8px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:3px 6px;border-bottom:1px solid #eef;vertical-align:top}
th{font-weight:600;color:#556}td.wrap{overflow-wrap:anywhere}button{white-space:nowrap}td.num{text-align:right;font-variant-numeric:tabular-nums}
form{display:flex;gap:6px;flex-wrap:wrap;align-items:center;margin:6px 0}input,select{font:inherit;padding:3px 5px;border:1px solid #ccd;border-radius:4px}
input[type=text],input[type=number]{width:110px}button{font:inherit;padding:3px 10px;border:1px solid #2b59c3;background:#2b59c3;color:#fff;border-radius:4px;cursor:pointer}
button.secondary{background:#fff;color:#2b59c3}button:disabled{opacity:.45;cursor:default}
.s-pending{color:#a06500}.s-active{color:#0a7a33}.s-matured{color:#2b59c3}.s-cancelled,.s-failed,.s-liquidated{color:#b3261e}.s-delivered,.s-succeeded{color:#0a7a33}
.pill{display:inline-block;padding:0 6px;border-radius:9px;background:#eef;margin:1px 3px 1px 0;white-space:nowrap}
.attempt{font-family:ui-monospace,monospace;font-size:11.5px;white-space:nowrap}.sig{color:#667;font-family:ui-monospace,monospace;font-size:11px;word-break:break-all}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:8px}.chart{height:190px;border:1px solid #eef;border-radius:4px}
#notice{min-height:18px;color:#b3261e}.locked .needs-key{display:none}.open .no-key{display:none}
.history{color:#556;font-size:12px}.ok{color:#0a7a33}
`;

export function renderConsole(cfg: ConsoleConfig): string {
  const config = JSON.stringify(cfg).replace(/</g, '\\u003c');
  const ctl = cfg.controls ? '' : ' disabled title="this sandbox runs without controls"';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>lendcheck sandbox console</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>${CSS}</style></head>
<body class="locked">
<header>
  <h1>lendcheck sandbox</h1>
  <span class="muted">profile ${escapeHtml(cfg.profile)}</span>
  <form id="key-form" class="no-key" autocomplete="off"><input id="key" type="password" placeholder="ck_test_… key" aria-label="API key" size="28"><button>Open</button></form>
  <span class="needs-key">partner <b id="partner">–</b> <button id="close-key" class="secondary" type="button">Close</button></span>
  <span>clock <b id="clock">–</b></span>
  <form id="advance-form" class="needs-key"><input id="advance-seconds" type="number" min="1" value="86400" aria-label="seconds"><button${ctl}>Advance clock (s)</button></form>
  <span id="live" class="muted"></span>
</header>
<div id="notice" style="padding:4px 18px"></div>
<main>
  <section class="wide no-key"><h2>Read-only</h2><p>Without a key this console shows the public market data. Open it with a sandbox key (<code>ck_test_…</code>) to see your partner's users, positions and webhook deliveries and to act through the sandbox controls. The key stays in this tab's session storage; it is never part of the page.</p></section>
  <section class="needs-key"><h2>Users and funds</h2>
    <form id="fund-form"><input id="fund-user" type="text" placeholder="userId" required><select id="fund-asset">${options([...cfg.assets, ...cfg.collateralAssets.filter((a) => !cfg.assets.includes(a))])}</select><input id="fund-amount" type="text" placeholder="amount" value="1000" required><button${ctl}>Fund</button></form>
    <table id="users"><thead><tr><th>user</th><th>funds (available / locked)</th></tr></thead><tbody></tbody></table>
  </section>
  <section class="needs-key"><h2>Place an order</h2>
    <form id="order-form"><select id="order-side"><option value="lend">lend</option><option value="borrow">borrow</option></select>
      <input id="order-user" type="text" placeholder="userId" required><select id="order-asset">${options(cfg.assets)}</select>
      <input id="order-amount" type="text" placeholder="amount" value="1000" required><input id="order-rate" type="text" placeholder="rate" value="0.05">
      <select id="order-maturity">${options(cfg.maturities)}</select>
      <span id="collateral"><select id="order-collateral-asset">${options(cfg.collateralAssets)}</select><input id="order-collateral-amount" type="text" placeholder="collateral" value="1"></span>
      <button>Place</button></form>
    <h2 style="margin-top:10px">Trigger an event</h2>
    <form id="trigger-form"><select id="trigger-type">${options(cfg.eventTypes)}</select><input id="trigger-position" type="text" placeholder="positionId (optional)"><button${ctl}>Trigger</button></form>
  </section>
  <section class="wide needs-key"><h2>Positions</h2>
    <table id="positions"><thead><tr><th>position</th><th>user</th><th>type</th><th class="num">amount</th><th class="num">rate</th><th>status</th><th>maturity</th><th>lifecycle</th></tr></thead><tbody></tbody></table>
  </section>
  <section class="wide"><h2>Order books</h2><div id="books" class="charts"></div></section>
  <section><h2>Rates</h2><table id="rates"><thead><tr><th>asset</th><th>maturity</th><th class="num">lend</th><th class="num">borrow</th><th class="num">spread</th></tr></thead><tbody></tbody></table></section>
  <section class="needs-key"><h2>Webhook subscriptions</h2>
    <table id="subscriptions"><thead><tr><th>subscription</th><th>url</th><th>events</th><th>state</th><th></th></tr></thead><tbody></tbody></table>
  </section>
  <section class="wide needs-key"><h2>Webhook delivery log</h2>
    <table id="deliveries"><thead><tr><th>event</th><th>type</th><th>created</th><th>state</th><th>attempts (status · latency · answer · signature)</th><th></th></tr></thead><tbody></tbody></table>
  </section>
</main>
<script id="console-config" type="application/json">${config}</script>
<script src="/console/echarts.min.js"></script>
<script src="/console/app.js"></script>
</body></html>`;
}
