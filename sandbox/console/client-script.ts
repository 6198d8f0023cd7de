// The console's browser script, served as /console/app.js. Plain ES2020, no framework: it
// polls the sandbox's API (spec endpoints and /v1/sandbox controls) once a second with the key
// from sessionStorage, re-renders the tables, and sends every action through those same
// endpoints, each named by its id (the page inlines their routes: page.ts CONSOLE_ENDPOINTS). Kept as a string here (not a .js file) because the build ships only compiled
// TypeScript and data files; it is written without template literals so it embeds as is.

export const CLIENT_SCRIPT = String.raw`
'use strict';
(function () {
  var cfg = JSON.parse(document.getElementById('console-config').textContent);
  var KEY_ITEM = 'lendcheck.console.key';
  var $ = function (id) { return document.getElementById(id); };
  var charts = {};
  var busy = false;

  function esc(v) {
    return String(v == null ? '' : v).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function key() { return sessionStorage.getItem(KEY_ITEM); }
  function notice(msg) { $('notice').textContent = msg || ''; }
  function unwrap(j) { return j && typeof j === 'object' && 'data' in j && 'timestamp' in j ? j.data : j; }

  function api(method, path, body, auth) {
    var headers = {};
    if (auth !== false && key()) headers.authorization = 'Bearer ' + key();
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch('/v1' + path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) }).then(function (r) {
      return r.text().then(function (t) {
        var j; try { j = t ? JSON.parse(t) : undefined; } catch (e) { j = undefined; }
        if (!r.ok) {
          var m = j && j.error ? j.error.code + ': ' + j.error.message : r.status + ' ' + t.slice(0, 120);
          var err = new Error(method + ' ' + path + ' → ' + m); err.status = r.status; throw err;
        }
        return j;
      });
    });
  }
  // An action names its endpoint; its method and path come from the route list the page inlines (cfg.routes).
  function call(id, params, body) {
    var r = cfg.routes[id];
    var path = r.path.split('/').map(function (seg) {
      return seg.charAt(0) === '{' ? encodeURIComponent(params[seg.slice(1, -1)]) : seg;
    }).join('/');
    return api(r.method, path, body);
  }
  function act(p, done) {
    notice('');
    return p.then(function (x) { if (done) done(x); return refresh(); }).catch(function (e) { notice(e.message); });
  }

  // ---- rendering ------------------------------------------------------------------------
  function statusCell(s) { return '<span class="s-' + esc(s) + '">' + esc(s) + '</span>'; }

  function renderUsers(u) {
    $('partner').textContent = u.partnerId;
    $('users').tBodies[0].innerHTML = u.users.map(function (x) {
      var funds = x.balances.filter(function (b) { return Number(b.available) !== 0 || Number(b.locked) !== 0; }).map(function (b) {
        return '<span class="pill">' + esc(b.asset) + ' ' + esc(b.available) + (Number(b.locked) ? ' / ' + esc(b.locked) : '') + '</span>';
      }).join('');
      return '<tr data-user="' + esc(x.userId) + '"><td>' + esc(x.userId) + '</td><td>' + funds + '</td></tr>';
    }).join('');
  }

  function renderPositions(list, events) {
    var history = {};
    events.slice().reverse().forEach(function (e) {
      var id = e.data && e.data.positionId;
      if (!id) return;
      (history[id] = history[id] || []).push(e.type.replace('position.', '') + ' ' + e.createdAt.slice(5, 16).replace('T', ' '));
      var nid = e.data.newPositionId;
      if (nid) (history[nid] = history[nid] || []).push('rolled from ' + id);
    });
    $('positions').tBodies[0].innerHTML = list.map(function (p) {
      return '<tr data-position="' + esc(p.positionId) + '" data-status="' + esc(p.status) + '"><td>' + esc(p.positionId) + '</td><td>' + esc(p.userId) + '</td><td>' + esc(p.type) +
        '</td><td class="num">' + esc(p.amount) + ' ' + esc(p.asset) + '</td><td class="num">' + esc(p.rate) + '</td><td>' + statusCell(p.status) +
        '</td><td>' + esc(String(p.maturity).slice(0, 10)) + '</td><td class="history">' + esc((history[p.positionId] || []).join(' → ')) + '</td></tr>';
    }).join('');
  }

  function renderRates(r) {
    var rates = (unwrap(r) || {}).rates || [];
    $('rates').tBodies[0].innerHTML = rates.map(function (x) {
      return '<tr><td>' + esc(x.asset) + '</td><td>' + esc(x.maturity) + '</td><td class="num">' + esc(x.lendRate) + '</td><td class="num">' + esc(x.borrowRate) + '</td><td class="num">' + esc(x.spread) + '</td></tr>';
    }).join('');
  }

  function cumulative(levels, ascending) {
    var sorted = levels.slice().sort(function (a, b) { return ascending ? a.rate - b.rate : b.rate - a.rate; });
    var total = 0;
    // Depth starts at zero at the best rate, so even a single level draws a step.
    var pts = sorted.length ? [[sorted[0].rate, 0]] : [];
    sorted.forEach(function (l) { total += Number(l.amount); pts.push([l.rate, total]); });
    return pts;
  }
  function renderBook(id, book) {
    var box = document.getElementById('book-' + id);
    if (!box) {
      box = document.createElement('div');
      box.id = 'book-' + id; box.className = 'chart'; box.setAttribute('data-market', id);
      $('books').appendChild(box);
    }
    if (typeof echarts === 'undefined') { box.textContent = id + ': charts unavailable'; return; }
    var chart = charts[id] || (charts[id] = echarts.init(box, null, { renderer: 'svg' }));
    var lends = cumulative(book.lends || [], true);
    var borrows = cumulative(book.borrows || [], false);
    box.setAttribute('data-lends', String((book.lends || []).length));
    box.setAttribute('data-borrows', String((book.borrows || []).length));
    chart.setOption({
      animation: false,
      title: { text: id, textStyle: { fontSize: 12 }, left: 4, top: 2 },
      grid: { left: 54, right: 10, top: 28, bottom: 28 },
      tooltip: { trigger: 'axis' },
      legend: { right: 4, top: 2, textStyle: { fontSize: 10 }, data: ['lends', 'borrows'] },
      xAxis: { type: 'value', scale: true, name: 'rate', nameGap: 4, nameLocation: 'end', axisLabel: { fontSize: 10 } },
      yAxis: { type: 'value', axisLabel: { fontSize: 10 } },
      series: [
        { name: 'lends', type: 'line', step: 'end', areaStyle: { opacity: 0.25 }, symbol: 'none', color: '#0a7a33', data: lends },
        { name: 'borrows', type: 'line', step: 'start', areaStyle: { opacity: 0.25 }, symbol: 'none', color: '#b3261e', data: borrows },
      ],
    }, true);
  }

  function attemptText(a) {
    var head = '#' + a.attempt + ' ' + (a.outcome === 'pending' ? 'due ' + a.scheduledAt.slice(5, 19).replace('T', ' ') : (a.status == null ? 'no answer' : a.status));
    var parts = [head];
    if (a.latencyMs != null) parts.push(Math.round(a.latencyMs) + ' ms');
    if (a.response) parts.push('“' + a.response.slice(0, 40) + '”');
    if (a.error && a.status == null) parts.push(a.error.slice(0, 60));
    return '<div class="attempt s-' + esc(a.outcome) + '" data-attempt="' + a.attempt + '" data-outcome="' + esc(a.outcome) + '" data-status="' + esc(a.status) + '">' + esc(parts.join(' · ')) +
      (a.signature ? '<div class="sig">' + esc(a.signature) + '</div>' : '') + '</div>';
  }
  function renderDeliveries(d) {
    $('subscriptions').tBodies[0].innerHTML = d.subscriptions.map(function (s) {
      var state = s.disabled ? 'disabled' : s.paused ? 'paused' : 'active';
      return '<tr data-webhook="' + esc(s.webhookId) + '" data-state="' + state + '"><td>' + esc(s.webhookId) + '</td><td class="wrap">' + esc(s.url) + '</td><td class="wrap">' + esc(s.events.length === cfg.eventTypes.length ? 'all' : s.events.join(', ')) +
        '</td><td>' + statusCell(state) + '</td><td>' + (s.disabled ? '' : '<button class="secondary" data-action="' + (s.paused ? 'resume' : 'pause') + '" data-webhook="' + esc(s.webhookId) + '"' + (cfg.controls ? '' : ' disabled') + '>' + (s.paused ? 'Resume' : 'Pause') + '</button>') + '</td></tr>';
    }).join('');
    $('deliveries').tBodies[0].innerHTML = d.events.map(function (e) {
      return '<tr data-event="' + esc(e.eventId) + '" data-type="' + esc(e.type) + '" data-state="' + esc(e.state) + '"><td>' + esc(e.eventId) + '</td><td>' + esc(e.type) + '</td><td>' + esc(e.createdAt.slice(5, 19).replace('T', ' ')) +
        '</td><td>' + statusCell(e.state) + '</td><td>' + (e.attempts.map(attemptText).join('') || '<span class="muted">no subscription wanted it</span>') +
        '</td><td><button class="secondary" data-action="resend" data-event="' + esc(e.eventId) + '"' + (cfg.controls && e.attempts.length ? '' : ' disabled title="no subscription got this event"') + '>Resend</button></td></tr>';
    }).join('');
  }

  // ---- polling: one snapshot read (the API's own views, read in-process by the sandbox) ----
  function snapshot() {
    var headers = key() ? { authorization: 'Bearer ' + key() } : {};
    return fetch('/console/snapshot', { headers: headers, cache: 'no-store' }).then(function (r) {
      return r.text().then(function (t) {
        var j; try { j = JSON.parse(t); } catch (e) { j = undefined; }
        if (!r.ok) { var err = new Error('snapshot → ' + (j && j.error ? j.error.code + ': ' + j.error.message : r.status)); err.status = r.status; throw err; }
        return j;
      });
    });
  }
  function render(s) {
    s.markets.forEach(function (id) { renderBook(id, s.books[id] || {}); });
    renderRates({ rates: s.rates });
    if (!s.partner) return;
    if (s.clock) $('clock').textContent = s.clock.now.replace('T', ' ').slice(0, 19) + (s.clock.timeScale !== 1 ? ' (×' + s.clock.timeScale + ')' : '');
    if (s.users) renderUsers(s.users);
    if (s.deliveries) renderDeliveries(s.deliveries);
    if (s.positions) renderPositions(s.positions, s.deliveries ? s.deliveries.events : []);
  }
  function refresh() {
    if (busy) return Promise.resolve();
    busy = true;
    return snapshot().then(render).then(function () {
      $('live').textContent = 'live · updated ' + new Date().toLocaleTimeString();
    }).catch(function (e) {
      if (e.status === 401) { sessionStorage.removeItem(KEY_ITEM); setOpen(false); notice('the key was refused (401); the console is read-only again'); }
      else notice(e.message);
    }).then(function () { busy = false; });
  }

  function setOpen(open) {
    document.body.className = open ? 'open' : 'locked';
    if (!open) { $('partner').textContent = '–'; }
  }

  // ---- actions (each one request to a spec endpoint or a sandbox control) ---------------
  $('key-form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    var k = $('key').value.trim();
    $('key').value = '';
    if (!k) return;
    sessionStorage.setItem(KEY_ITEM, k);
    setOpen(true);
    refresh();
  });
  $('close-key').addEventListener('click', function () { sessionStorage.removeItem(KEY_ITEM); setOpen(false); refresh(); });
  $('advance-form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    act(call('sandbox.clock.advance', {}, { seconds: Number($('advance-seconds').value) }));
  });
  $('fund-form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    act(call('sandbox.fund', {}, { userId: $('fund-user').value.trim(), asset: $('fund-asset').value, amount: $('fund-amount').value.trim() }));
  });
  function syncSide() { $('collateral').style.display = $('order-side').value === 'borrow' ? '' : 'none'; }
  $('order-side').addEventListener('change', syncSide); syncSide();
  $('order-form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    var side = $('order-side').value, rate = $('order-rate').value.trim();
    var body = side === 'lend'
      ? { userId: $('order-user').value.trim(), asset: $('order-asset').value, amount: $('order-amount').value.trim(), maturity: $('order-maturity').value }
      : { userId: $('order-user').value.trim(), collateral: { asset: $('order-collateral-asset').value, amount: $('order-collateral-amount').value.trim() }, borrowAsset: $('order-asset').value, borrowAmount: $('order-amount').value.trim(), maturity: $('order-maturity').value };
    if (rate) body.rate = Number(rate);
    act(call(side === 'lend' ? 'lend.create' : 'borrow.create', {}, body), function (p) { notice(''); $('live').textContent = side + ' placed: ' + (p && p.positionId ? p.positionId : 'ok'); });
  });
  $('trigger-form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    var pos = $('trigger-position').value.trim();
    act(call('sandbox.trigger', {}, pos ? { type: $('trigger-type').value, positionId: pos } : { type: $('trigger-type').value }));
  });
  document.addEventListener('click', function (ev) {
    var b = ev.target.closest && ev.target.closest('button[data-action]');
    if (!b) return;
    var a = b.getAttribute('data-action');
    if (a === 'resend') act(call('sandbox.resend', { eventId: b.getAttribute('data-event') }, {}));
    else act(call(a === 'pause' ? 'sandbox.webhook.pause' : 'sandbox.webhook.resume', { webhookId: b.getAttribute('data-webhook') }));
  });

  setOpen(!!key());
  refresh();
  setInterval(refresh, cfg.pollMs);
})();
`;
