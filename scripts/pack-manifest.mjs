#!/usr/bin/env node
// The package.json that ships carries no install script. `prepare` (finding or building k6 in a
// checkout, scripts/ensure-k6.mjs) is for this repository's `npm ci`; in the published
// manifest npm would flag it as an install script. npm packs the package.json on disk after
// `prepack`, so prepack runs `strip` (the checkout's file saved to .tmp/, then rewritten
// without `scripts.prepare`) and postpack runs `restore` (the saved file written back as it
// was, byte for byte). A pack that fails between the two leaves the saved copy, and the next strip stops on it.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = join(root, 'package.json');
const saved = join(root, '.tmp', 'package.json.before-pack');
/** Scripts npm runs on a consumer's install, or flags as install scripts. */
export const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

/** The published manifest: the checkout's, without install scripts. */
export function publishedManifest(text) {
  const pkg = JSON.parse(text);
  for (const s of INSTALL_SCRIPTS) delete pkg.scripts?.[s];
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

const verb = process.argv[2];
if (verb === 'strip') {
  // A copy left by a failed pack may be older than package.json now: a person decides, not this script.
  if (existsSync(saved)) {
    console.error(`pack-manifest: ${saved} is left from an interrupted pack; compare it with package.json, then delete it or run \`node scripts/pack-manifest.mjs restore\``);
    process.exit(1);
  }
  const original = readFileSync(manifest, 'utf8');
  mkdirSync(dirname(saved), { recursive: true });
  writeFileSync(saved, original);
  writeFileSync(manifest, publishedManifest(original));
} else if (verb === 'restore') {
  if (existsSync(saved)) {
    writeFileSync(manifest, readFileSync(saved, 'utf8'));
    rmSync(saved);
  }
} else if (verb !== undefined) {
  console.error(`pack-manifest: strip or restore, not ${verb}`);
  process.exit(2);
}
