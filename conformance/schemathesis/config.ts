import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Profile } from '../../contract/profile.ts';

// The Schemathesis config of one run: conformance/schemathesis/schemathesis.toml (the state rules, each
// with its reason), the statuses the profile gives the errors those rules name, the auth,
// and (on the command line: `--checks all` overrides a config's `enabled`) the one check a
// profile can make inapplicable. Written as text: the toml is small
// and the edits are two (an array extended, lines added), so no TOML library is needed.

export const SCHEMATHESIS_CONFIG = fileURLToPath(new URL('./schemathesis.toml', import.meta.url));

/** The hooks file (SCHEMATHESIS_HOOKS): ST401's probe answered 429 by the public bucket is a refusal (reason in the file). */
export const SCHEMATHESIS_HOOKS_FILE = fileURLToPath(new URL('./hooks.py', import.meta.url));

export interface ConfigAuth {
  /** One key: an Authorization header from the environment variable named here. */
  headerEnv?: string;
  /** Two partners' keys: a Web Fuzzing Commons auth file whose users are peers (object_level_authorization runs). */
  wfcFile?: string;
  peers?: string[];
}

/** Statuses a schema-valid request may get for the state rules of the toml, under this profile. */
export function stateStatuses(p: Profile): number[] {
  const s = [p.errors.invalidState.status, p.lifecycle.repayOnLend.status, p.errors.unsupportedAsset.status, p.errors.unknownRoute.status];
  if (p.errors.unknownUser === 'position_not_found') s.push(404);
  return [...new Set(s)].sort((a, b) => a - b);
}

/**
 * Why Schemathesis' `unsupported_method` check cannot apply under the profile, or undefined.
 * It expects 405 for a method the document lacks; the spec leaves that answer open (profile
 * errors.methodNotAllowed) and OpenAPI has no way to state another one.
 */
export function unsupportedMethodOff(p: Profile): string | undefined {
  const m = p.errors.methodNotAllowed;
  return m.status === 405 ? undefined : `the profile answers a method a path lacks with ${m.status} (${m.code}); the spec leaves that open and OpenAPI cannot state it, while the check wants 405`;
}

export function schemathesisConfig(p: Profile, auth: ConfigAuth, base = readFileSync(SCHEMATHESIS_CONFIG, 'utf8')): string {
  const extra = stateStatuses(p).map(String);
  let text = base.replace(/expected-statuses = \[([^\]]*)\]/g, (_m, list: string) => {
    const have = list.split(',').map((s) => s.trim().replace(/"/g, '')).filter(Boolean);
    const all = [...new Set([...have, ...extra])];
    return `expected-statuses = [${all.map((s) => `"${s}"`).join(', ')}]`;
  });
  text += unknownPeriods(p, extra);
  // Top-level keys go before the first table.
  if (auth.headerEnv) text = `headers = { Authorization = "\${${auth.headerEnv}}" }\n${text}`;
  if (auth.wfcFile) text += `\n[auth.wfc]\npath = ${JSON.stringify(auth.wfcFile)}\npeers = ${JSON.stringify(auth.peers ?? [])}\n`;
  return text;
}

/**
 * Where the profile does not know the analytics periods (markets.periods null: detection could not
 * read them), the document lists none (contract/openapi/exact.ts), so a period Schemathesis draws
 * may be one the target does not offer: its 400 is the target's own rule, not a refusal of valid
 * data (part 4: "Allowed values of period: not shown").
 */
function unknownPeriods(p: Profile, extra: string[]): string {
  if (p.markets.periods !== null) return '';
  const statuses = [...new Set(['2xx', '400', '429', '5xx', ...extra])].map((s) => `"${s}"`).join(', ');
  return `\n# markets.periods is unknown: a period the target does not offer is refused with its own 400.\n[[operations]]\ninclude-operation-id-regex = "^public\\\\.(tvl|volume|rateSeries)$"\nchecks.positive_data_acceptance.expected-statuses = [${statuses}]\n`;
}
