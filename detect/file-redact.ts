import { JSON_FIELD_TYPES } from '../contract/profile.ts';
import { createRedactor, type Redactor } from '../reports/redact.ts';

// The profile file `profile detect` writes, with keys and secrets masked. Redaction masks
// VALUES: the recorded response shapes (`responses`, and their records under
// `detection.options["responses.…"]`) hold field names and JSON type names only, so they are
// not masked as values. Masked as text, a shape `"secret": "string"` became `"secret": "***"`,
// which no profile loads (issue 33): every target whose registration answer shows the signing
// secret, as the spec's subscription object does, broke conformance before its first check.

type Json = Record<string, unknown>;
const TYPES = new Set<string>(JSON_FIELD_TYPES);

/** A recorded shape, kept as names and type names: a name is masked only if it holds a key or secret itself. */
function shape(fields: unknown, r: Redactor): Json {
  const out: Json = {};
  for (const [name, type] of Object.entries((fields ?? {}) as Json)) out[r.text(name)] = typeof type === 'string' && TYPES.has(type) ? type : r.value(type);
  return out;
}

function responses(rec: unknown, r: Redactor): Json {
  const out: Json = {};
  for (const [key, v] of Object.entries((rec ?? {}) as Json)) {
    const { fields, ...rest } = (v ?? {}) as Json;
    out[r.text(key)] = { ...r.value(rest), fields: shape(fields, r) };
  }
  return out;
}

export function redactProfileFile(file: Json, secrets: string[]): Json {
  const r = createRedactor(secrets);
  const { responses: recorded, detection, ...rest } = file;
  const out: Json = r.value(rest);
  if (recorded !== undefined) out.responses = responses(recorded, r);
  if (detection !== undefined) {
    const { options, ...d } = detection as Json;
    const opts: Json = {};
    for (const [name, rec] of Object.entries((options ?? {}) as Json)) {
      if (!name.startsWith('responses.') || !rec || typeof rec !== 'object') {
        opts[r.text(name)] = r.value(rec);
        continue;
      }
      const { value, ...meta } = rec as Json;
      const { fields, ...v } = (value ?? {}) as Json;
      opts[r.text(name)] = { ...r.value(meta), value: { ...r.value(v), fields: shape(fields, r) } };
    }
    out.detection = { ...r.value(d), options: opts };
  }
  return out;
}
