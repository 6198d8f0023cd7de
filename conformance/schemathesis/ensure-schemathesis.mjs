#!/usr/bin/env node
// Installs the pinned Schemathesis from PyPI into a cache venv
// (~/.cache/lendcheck/schemathesis-<version>-py<X.Y>, or under $LENDCHECK_CACHE) and prints
// where its executable is. Plain Node with no packages, like ensure-k6.mjs, so .ci/run and
// the README's set-up can call it first.
//
// Python: the newest 3.13 found ($LENDCHECK_PYTHON, python3.13 on PATH, pyenv's or uv's
// installs), else 3.12, else any 3.10+. Why 3.13 first: on CPython 3.11.7, Schemathesis
// 4.32.5's coverage phase for POST /lend dies inside Hypothesis with a CPython SystemError.
//
//   node conformance/schemathesis/ensure-schemathesis.mjs               ensure; exit 1 when impossible
//   node conformance/schemathesis/ensure-schemathesis.mjs --soft        ensure, but exit 0 (saying why) without Python
//   node conformance/schemathesis/ensure-schemathesis.mjs --print-path  the executable, or nothing (exit 1)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const SCHEMATHESIS_VERSION = '4.32.5';
/** Minor versions in order of preference; anything else 3.10+ is the last resort. */
const PREFERRED = ['3.13', '3.12'];

const cacheDir = process.env.LENDCHECK_CACHE ?? join(homedir(), '.cache', 'lendcheck');

function versionOf(bin) {
  if (!existsSync(bin)) return undefined;
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  return r.status === 0 ? /version (\S+)/.exec(r.stdout)?.[1] : undefined;
}

/** "3.13" for an interpreter that runs and has venv, else undefined. */
function minorOf(python) {
  const r = spawnSync(python, ['-c', 'import sys, venv; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8', timeout: 30_000 });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** Interpreters to try, most wanted first: explicit, then per preferred minor, then plain python3. */
function candidates() {
  const out = [];
  if (process.env.LENDCHECK_PYTHON) out.push(process.env.LENDCHECK_PYTHON);
  const roots = [process.env.PYENV_ROOT ?? join(homedir(), '.pyenv'), join(homedir(), '.local', 'share', 'uv', 'python')];
  for (const minor of PREFERRED) {
    out.push(`python${minor}`, `/usr/bin/python${minor}`, `/usr/local/bin/python${minor}`);
    for (const root of roots) {
      const dir = root.endsWith('python') ? root : join(root, 'versions');
      if (!existsSync(dir)) continue;
      const found = readdirSync(dir).filter((d) => d === minor || d.startsWith(`${minor}.`) || d.startsWith(`cpython-${minor}.`)).sort().reverse();
      for (const d of found) out.push(join(dir, d, 'bin', `python${minor}`));
    }
  }
  out.push('python3', 'python');
  return out;
}

/** The interpreter to build the venv with, and its minor version. */
export function findPython() {
  for (const python of candidates()) {
    const minor = minorOf(python);
    if (!minor) continue;
    const [maj, min] = minor.split('.').map(Number);
    if (maj === 3 && min >= 10) return { python, minor };
  }
  return undefined;
}

const venvFor = (minor) => join(cacheDir, `schemathesis-${SCHEMATHESIS_VERSION}-py${minor}`);
const binOf = (venv) => join(venv, 'bin', 'schemathesis');

/** An already built venv, preferred minor first. */
function existing() {
  for (const minor of PREFERRED) if (versionOf(binOf(venvFor(minor))) === SCHEMATHESIS_VERSION) return binOf(venvFor(minor));
  return undefined;
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'inherit', 'inherit'], timeout: 15 * 60_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
}

/** The path found once in this process: each run asked again (a `--version` spawn, about a second on a loaded machine). */
let found;

/** Returns the executable's path, or throws with the reason it cannot be had. */
export function ensureSchemathesis() {
  if (found && existsSync(found)) return found;
  found = ensureUncached();
  return found;
}

function ensureUncached() {
  const have = existing();
  if (have) return have;
  const py = findPython();
  if (!py) throw new Error('no Python 3.10+ with venv found (Schemathesis is a Python tool)');
  if (!PREFERRED.includes(py.minor)) {
    console.error(`ensure-schemathesis: no Python ${PREFERRED.join(' or ')} found; using ${py.minor} (on 3.11.7 the coverage phase can die with a CPython SystemError)`);
  }
  const venv = venvFor(py.minor);
  const bin = binOf(venv);
  if (versionOf(bin) === SCHEMATHESIS_VERSION) return bin;
  if (!existsSync(join(venv, 'bin', 'pip'))) run(py.python, ['-m', 'venv', venv]);
  console.error(`ensure-schemathesis: installing schemathesis==${SCHEMATHESIS_VERSION} into ${venv} (Python ${py.minor})`);
  run(join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`]);
  const got = versionOf(bin);
  if (got !== SCHEMATHESIS_VERSION) throw new Error(`installed, but ${bin} reports ${got ?? 'nothing'}`);
  return bin;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = new Set(process.argv.slice(2));
  if (args.has('--print-path')) {
    const have = existing() ?? (() => { const py = findPython(); return py && versionOf(binOf(venvFor(py.minor))) === SCHEMATHESIS_VERSION ? binOf(venvFor(py.minor)) : undefined; })();
    if (have) console.log(have);
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
