import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { closestSchemeName, SIGNATURE_SCHEME_NAMES, type SignatureSchemeName } from '../contract/index.ts';
import { InputError } from './exit-codes.ts';

// --signature-scheme NAME (issue 47): the user names the webhook signature scheme the target
// uses (part 6 leaves it open), over the profile's and over what detection found. The steps
// read the profile from its file (conformance runs apart), so the named scheme is written
// into a profile file of its own beside the reports, and that file is the one they load.

/** The name, checked: a bad one is a one-line error with the closest name. */
export function signatureSchemeOption(name: string): SignatureSchemeName {
  if ((SIGNATURE_SCHEME_NAMES as string[]).includes(name)) return name as SignatureSchemeName;
  throw new InputError(`--signature-scheme: unknown scheme "${name}": did you mean ${closestSchemeName(name)}? (one of ${SIGNATURE_SCHEME_NAMES.join(', ')})`);
}

/** The profile file with signature.scheme set to the name: written under dir, its path returned. */
export function profileFileWithScheme(name: SignatureSchemeName, profileFile: string | undefined, dir: string): string {
  const base = profileFile && existsSync(profileFile) ? (JSON.parse(readFileSync(profileFile, 'utf8')) as Record<string, unknown>) : {};
  const signature = { ...((base.signature as Record<string, unknown> | undefined) ?? {}), scheme: name };
  mkdirSync(dir, { recursive: true });
  const out = resolve(join(dir, 'profile-signature-scheme.json'));
  writeFileSync(out, `${JSON.stringify({ ...base, signature }, null, 2)}\n`);
  return out;
}
