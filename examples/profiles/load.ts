import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultProfile, parseProfile, type Profile } from '../../contract/index.ts';

// The example profiles beside this file, each another valid set of the spec's "not shown"
// choices: tests run the sandbox under them and detection must recover them.

export const EXAMPLE_PROFILES = ['fintech-rest', 'strict-gateway', 'minimal-sandbox'];

export function exampleProfile(name: string): Profile {
  if (name === 'default') return defaultProfile;
  const file = fileURLToPath(new URL(`./${name}.json`, import.meta.url));
  return parseProfile(JSON.parse(readFileSync(file, 'utf8')));
}
