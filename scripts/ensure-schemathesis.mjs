#!/usr/bin/env node
// Installs the pinned Schemathesis from PyPI into a cache venv (~/.cache/lendcheck/venv,
// or $LENDCHECK_CACHE/venv) and prints where its executable is. Plain Node with no
// packages, like ensure-k6.mjs, so .ci/run and the README's set-up can call it first.
//
//   node scripts/ensure-schemathesis.mjs               ensure; exit 1 when impossible
//   node scripts/ensure-schemathesis.mjs --soft        ensure, but exit 0 (saying why) without Python
//   node scripts/ensure-schemathesis.mjs --print-path  the executable, or nothing (exit 1)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const SCHEMATHESIS_VERSION = '4.32.5';

const cacheDir = process.env.LENDCHECK_CACHE ?? join(homedir(), '.cache', 'lendcheck');
const venv = join(cacheDir, 'venv');
export const schemathesisBin = join(venv, 'bin', 'schemathesis');

function versionOf(bin) {
  if (!existsSync(bin)) return undefined;
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  return r.status === 0 ? /version (\S+)/.exec(r.stdout)?.[1] : undefined;
}

function python() {
  for (const name of ['python3', 'python']) {
    const r = spawnSync(name, ['-c', 'import sys, venv; print(sys.version_info >= (3, 10))'], { encoding: 'utf8' });
    if (r.status === 0 && r.stdout.trim() === 'True') return name;
  }
  return undefined;
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'inherit', 'inherit'], timeout: 15 * 60_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
}

/** Returns the executable's path, or throws with the reason it cannot be had. */
export function ensureSchemathesis() {
  if (versionOf(schemathesisBin) === SCHEMATHESIS_VERSION) return schemathesisBin;
  const py = python();
  if (!py) throw new Error('no Python 3.10+ with venv on PATH (Schemathesis is a Python tool)');
  if (!existsSync(join(venv, 'bin', 'pip'))) run(py, ['-m', 'venv', venv]);
  console.error(`ensure-schemathesis: installing schemathesis==${SCHEMATHESIS_VERSION} into ${venv}`);
  run(join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`]);
  const got = versionOf(schemathesisBin);
  if (got !== SCHEMATHESIS_VERSION) throw new Error(`installed, but ${schemathesisBin} reports ${got ?? 'nothing'}`);
  return schemathesisBin;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = new Set(process.argv.slice(2));
  if (args.has('--print-path')) {
    if (versionOf(schemathesisBin) === SCHEMATHESIS_VERSION) console.log(schemathesisBin);
    else process.exitCode = 1;
  } else {
    try {
      console.log(`ensure-schemathesis: ${ensureSchemathesis()} (${SCHEMATHESIS_VERSION})`);
    } catch (e) {
      console.error(`ensure-schemathesis: ${e.message}`);
      process.exitCode = args.has('--soft') ? 0 : 1;
    }
  }
}
