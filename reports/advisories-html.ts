import type { Advisory, CheckResult } from '../kernel/results.ts';
import { html, type Html } from './html-escape.ts';
import { adviceBasis } from './output/advisory-lines.ts';

// Advice in the HTML report (issue 47): what lendcheck believes of the answers but the spec does
// not state, each with what it leans on and its evidence, apart from the failures: it never
// changes a verdict.

const item = (a: Advisory): Html => html`<li><code>${adviceBasis(a)}</code> expected ${a.expected} / received ${a.received}${a.evidence ? html` <span class="muted">(${a.evidence})</span>` : ''}</li>`;

/** A check's advice, for its row in a checks table (nothing when it has none). */
export const adviceList = (c: Pick<CheckResult, 'advisories'>): Html => (c.advisories?.length ? html`<p class="advice">Advice (not a failure):</p><ul class="advice">${c.advisories.map(item)}</ul>` : html``);

/** A part's advice, check by check, under its own heading (nothing when there is none). */
export function adviceSection(checks: CheckResult[]): Html {
  const advised = checks.filter((c) => c.advisories?.length);
  if (!advised.length) return html``;
  const n = advised.reduce((k, c) => k + c.advisories!.length, 0);
  return html`<h3>Advisories (${n})</h3>
<p class="muted">What lendcheck believes but the spec does not state of these answers. Never a failure and no exit code reads it; <code>--strict</code> makes it one. See docs/requirements.md for what each requirement binds.</p>
<table class="advice"><thead><tr><th>check</th><th>advice</th></tr></thead><tbody>
${advised.map((c) => html`<tr><td><code>${c.id}</code></td><td><ul class="advice">${c.advisories!.map(item)}</ul></td></tr>`)}
</tbody></table>`;
}
