import { pathToFileURL } from 'node:url';
import { defaultProfile, endpoints, parseProfile, REQUIREMENTS, SPEC_NAMED, type Endpoint, type Requirement } from '../contract/index.ts';
import { EVERY, EVERY_KEY, EVERY_PUBLIC, type Beyond } from '../contract/requirement-binds.ts';
import type { Check } from './check.ts';
import { scopeOf } from './check-scope.ts';
import { allChecks } from './registry.ts';
import { checksCiting } from './requirement-binding.ts';

// docs/requirements.md, generated from the requirement table (issue 47): each requirement in the
// spec's words, what it binds, the checks that enforce it, whether it fails or only advises;
// then each check with the sentences it enforces. Regenerate with
//   node --import tsx conformance/requirements-doc.ts > docs/requirements.md
// (npm run requirements:doc; conformance/requirements-doc.test.ts fails when the committed page is stale).

/** Every endpoint served (the rates path known, the webhook list and delete offered), so every check and binding shows. */
const FULL = parseProfile({ ratesPath: defaultProfile.ratesPath, webhooks: { listAndDelete: true } });

const BEYOND: Record<Beyond, string> = {
  deliveries: 'the webhook deliveries the service sends',
  receiver: "the partner's webhook receiver (certify)",
  ledger: "users' funds and positions across requests",
};

const PART: Record<string, string> = {
  '1': 'Part 1: what the service does',
  '2': 'Part 2: resources and their fields',
  '3': 'Part 3: states and transitions',
  '4': 'Part 4: endpoints',
  '5': 'Part 5: authentication',
  '6': 'Part 6: events',
  '7': 'Part 7: errors',
  '8': 'Part 8: limits',
  '9': 'Part 9: versioning',
};

function label(ref: string, all: readonly Endpoint[]): string {
  if (ref === EVERY) return 'every endpoint';
  if (ref === EVERY_KEY) return 'every authenticated endpoint';
  if (ref === EVERY_PUBLIC) return 'every public endpoint';
  const e = all.find((x) => x.id === ref);
  return e ? `${e.method} ${e.id === 'rates.get' ? '<rates path>' : e.path}` : ref;
}

const code = (s: string) => `\`${s}\``;
/** A quote as one Markdown blockquote line (table pipes kept: they are the spec's). */
const quote = (s: string) => `> ${s.replace(/\n/g, ' ')}`;

function bindsLines(q: Requirement, all: readonly Endpoint[]): string[] {
  const b = q.binds;
  if (!b) return ['- Binds: **not yet said** (contract/requirement-binds.ts)'];
  const lines: string[] = [];
  if (b.response?.length) lines.push(`- Binds the answers of: ${b.response.map((r) => label(r, all)).join('; ')}`);
  if (b.request?.length) lines.push(`- Binds the requests to: ${b.request.map((r) => label(r, all)).join('; ')}`);
  if (b.beyond?.length) lines.push(`- Binds: ${b.beyond.map((x) => BEYOND[x]).join('; ')}`);
  if (b.resources?.length) lines.push(`- Resources: ${b.resources.join(', ')}`);
  if (b.fields?.length) lines.push(`- Fields: ${b.fields.map(code).join(', ')}`);
  return lines;
}

function registry(): Check[] {
  const byId = new Map<string, Check>();
  for (const p of [defaultProfile, FULL]) for (const c of allChecks(p, { key: 'starter', key2: 'growth', burstKey: 'scale' })) byId.set(c.id, c);
  return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
}

export function requirementsMarkdown(): string {
  const all = endpoints(FULL);
  const checks = registry();
  const out: string[] = [
    '# Requirements: what each rule binds',
    '',
    '<!-- Generated from contract/requirements.ts and contract/requirement-binds.ts by `npm run requirements:doc`; conformance/requirements-doc.test.ts fails when this page is stale. Do not edit by hand. -->',
    '',
    'Every rule lendcheck can fail a service on cites a requirement: a sentence of the spec, quoted',
    'here in its own words, with exactly what it binds (which endpoints\' requests or answers, which',
    'resources and fields, or the webhook deliveries and the ledger beyond one answer). A check may',
    'fail a service only through a requirement that binds what the check judges; a test',
    '(conformance/requirement-binding.test.ts) holds every check of the suite to that, and catches a',
    'planted rule that binds the wrong endpoint.',
    '',
    '- **fails**: a check citing it may fail a service on what it binds.',
    '- **advises**: it permits (a "may"), or lendcheck only believes it: an advisory, shown on the',
    '  console and in the report with its evidence, never a failure and never an exit code. `--strict`',
    '  makes advice a failure, for a service that wants the reference sandbox\'s shapes.',
    '',
    'Where the spec shows no body ("Response body: not shown"), only JSON, the `{data, timestamp}`',
    'wrapper the profile names, and the id field the profile names (`ids.*`) are required. A field',
    'there that part 2 names for another resource is no such resource\'s field: another type is',
    'advice ([below](#field-types-where-the-spec-shows-no-body)). Load, chaos and certify cite the',
    'same ids for the rate limits and the webhook rules; the checks listed here are the conformance',
    'suite\'s.',
    '',
  ];
  for (const part of Object.keys(PART)) {
    const rows = REQUIREMENTS.filter((q) => q.section === part);
    if (!rows.length) continue;
    out.push(`## ${PART[part]}`, '');
    for (const q of rows) {
      const citing = checksCiting(q.id, checks);
      out.push(`### ${q.id} (${q.binds?.enforce === 'advise' ? 'advises' : 'fails'})`, '', quote(q.text), '', ...bindsLines(q, all), `- lendcheck reads it as: ${q.summary}`, `- Enforced by: ${citing.length ? citing.map(code).join(', ') : 'no conformance check (load, chaos or certify, or not yet covered)'}`, '');
    }
  }
  out.push('## Field types where the spec shows no body', '', 'Part 2 gives these fields a type in the resources named. In a body the spec does not show, a field of the same name with another type is an advisory citing the requirement, never a failure (but under `--strict`).', '', '| field | typed by part 2 in | requirement |', '|---|---|---|');
  for (const [field, n] of Object.entries(SPEC_NAMED)) out.push(`| ${code(field)} | ${n.where.replace(/\|/g, '\\|')} | ${n.requirement} |`);
  out.push('', '## Checks and the sentences they enforce', '', '| check | judges | requirements (fails / advises) |', '|---|---|---|');
  const byId = new Map(REQUIREMENTS.map((q) => [q.id, q]));
  for (const c of checks) {
    const s = scopeOf(c);
    const judges = s ? [...s.endpoints.map((r) => label(r, all)), ...(s.beyond ?? []).map((x) => BEYOND[x])].join('; ') || '—' : 'not said';
    const reqs = c.requirements.map((id) => `${id}${byId.get(id)?.binds?.enforce === 'advise' ? ' (advises)' : ''}`).join(', ');
    out.push(`| ${code(c.id)} | ${judges} | ${reqs} |`);
  }
  return `${out.join('\n')}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.stdout.write(requirementsMarkdown());
