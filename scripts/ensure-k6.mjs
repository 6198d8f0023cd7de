#!/usr/bin/env node
// Finds or builds the pinned k6 and records where it is. Plain Node with no packages, so
// CI and a checkout's `npm ci` (prepare) can run it before anything is built; the CLI
// calls it on first use of `lendcheck load` and from `lendcheck k6 install`.
//
//   node scripts/ensure-k6.mjs            ensure, exit non-zero when impossible
//   node scripts/ensure-k6.mjs --soft     ensure, but never fail (prepare)
//   node scripts/ensure-k6.mjs --print-path
//
// Every outcome is recorded in <cache>/k6.json: the binary chosen, and each version whose Go
// build was refused (the proxy's 403) with when and why. Only the install-time calls (this
// script, `lendcheck k6 install`) try a refused version again; `lendcheck load` and `lendcheck k6`
// read the record and never rebuild on each call.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const K6_WANTED = 'v2.3.0';
// The Go module proxy refuses v2.3.0's source zip ("This module version is not
// available", HTTP 403). v2.2.0 is the newest v2 release it serves; it is used only
// when the wanted version cannot be had, and that is said loudly and recorded.
export const K6_FALLBACKS = ['v2.2.0'];
export const K6_MODULE = 'go.k6.io/k6/v2';

const cacheDir = process.env.LENDCHECK_CACHE ?? join(homedir(), '.cache', 'lendcheck');
const binDir = join(cacheDir, 'bin');
const stateFile = join(cacheDir, 'k6.json');

function versionOf(bin) {
  const r = spawnSync(bin, ['version'], { encoding: 'utf8', timeout: 20_000 });
  if (r.status !== 0) return undefined;
  return /\s(v\d+\.\d+\.\d+)\s/.exec(` ${r.stdout}`)?.[1];
}

function which(name) {
  const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function goVersionOk() {
  const go = which('go');
  if (!go) return false;
  const m = /go(\d+)\.(\d+)/.exec(execFileSync(go, ['version'], { encoding: 'utf8' }));
  return !!m && (Number(m[1]) > 1 || Number(m[2]) >= 26);
}

/** Builds one version into the cache; returns the binary path or an error text. */
function build(version) {
  const out = join(binDir, `k6-${version}`);
  if (existsSync(out) && versionOf(out) === version) return { path: out };
  mkdirSync(binDir, { recursive: true });
  // A throwaway module instead of `go install`: go install asks the proxy for the
  // module's deprecation via its version list, which the proxy does not serve for /v2.
  const dir = mkdtempSync(join(tmpdir(), 'lendcheck-k6-'));
  try {
    writeFileSync(join(dir, 'go.mod'), `module lendcheck/k6build\n\ngo 1.26\n\nrequire ${K6_MODULE} ${version}\n`);
    const env = { ...process.env, GOFLAGS: '-mod=mod' };
    console.error(`ensure-k6: trying to build k6 ${version} with Go (a few minutes the first time)...`);
    for (const args of [['mod', 'download', K6_MODULE], ['build', '-trimpath', '-o', out, K6_MODULE]]) {
      const r = spawnSync('go', args, { cwd: dir, env, encoding: 'utf8', timeout: 20 * 60_000 });
      if (r.status !== 0) return { error: (r.stderr || r.stdout || `go ${args[0]} failed`).trim().split('\n').slice(-3).join(' | ') };
    }
    return versionOf(out) === version ? { path: out } : { error: `built binary does not report ${version}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The record of the last install-time attempt (k6.json), or undefined when none was made here. */
export function readK6State() {
  try {
    return JSON.parse(readFileSync(stateFile, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Finds the pinned k6, or builds it with Go, and records the outcome.
 *   retryRefused: build again a version whose build was refused before (install time only);
 *   build: false finds without building (a later call after an install-time attempt failed).
 */
export function ensureK6({ retryRefused = false, build: mayBuild = true } = {}) {
  const accepted = [K6_WANTED, ...K6_FALLBACKS];
  const refused = { ...(readK6State()?.refused ?? {}) };
  const tryBuild = (v) => {
    const before = refused[v];
    if (before && !retryRefused) return { error: `refused when last tried (${before.at}): ${before.error}`, skipped: true };
    if (!mayBuild) return { error: 'not built here (lendcheck k6 install builds it)', skipped: true };
    const b = build(v);
    if (b.path) delete refused[v];
    else refused[v] = { at: new Date().toISOString(), error: b.error };
    return b;
  };
  const record = (state) => save({ ...state, ...(Object.keys(refused).length ? { refused } : {}), at: new Date().toISOString() });
  const candidates = [process.env.K6_BIN, which('k6'), ...accepted.map((v) => join(binDir, `k6-${v}`))].filter(Boolean);
  // Prefer the wanted version wherever it is; a fallback only when no wanted one exists.
  const found = candidates.map((p) => ({ path: p, version: existsSync(p) ? versionOf(p) : undefined }));
  const wanted = found.find((f) => f.version === K6_WANTED);
  const notes = [];
  if (!wanted && goVersionOk()) {
    const w = tryBuild(K6_WANTED);
    if (w.path) return record({ path: w.path, version: K6_WANTED, wanted: K6_WANTED });
    notes.push(`k6 ${K6_WANTED} could not be built: ${w.error}`);
  }
  const chosen = wanted ?? found.find((f) => accepted.includes(f.version));
  if (chosen) return record({ ...chosen, wanted: K6_WANTED, note: notes.join('; ') || undefined });
  if (goVersionOk()) {
    for (const v of K6_FALLBACKS) {
      const b = tryBuild(v);
      if (b.path) return record({ path: b.path, version: v, wanted: K6_WANTED, note: notes.join('; ') });
      notes.push(`k6 ${v} could not be built: ${b.error}`);
    }
  } else {
    notes.push('Go 1.26 or newer is not installed');
  }
  const message =
    `no k6 ${K6_WANTED} found (K6_BIN, PATH, ${binDir}). ${notes.join('; ')}.\n` +
    `Install k6 ${K6_WANTED} from https://grafana.com/docs/k6/latest/set-up/install-k6/ and put it on PATH or in K6_BIN, ` +
    `or install Go 1.26+ and run: lendcheck k6 install (in a checkout: node cli/bin.js k6 install)`;
  record({ wanted: K6_WANTED, error: message });
  throw new Error(message);
}

function save(state) {
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(stateFile, JSON.stringify(state, null, 2));
  return state;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const soft = process.argv.includes('--soft');
  try {
    // Install time: the one place a refused version is tried again.
    const s = ensureK6({ retryRefused: true });
    if (process.argv.includes('--print-path')) {
      console.log(s.path);
    } else {
      console.log(`ensure-k6: k6 ${s.version} at ${s.path}`);
      if (s.version !== s.wanted) {
        console.log(`ensure-k6: WARNING: pinned ${s.wanted} is unavailable here; using ${s.version}. ${s.note ?? ''}`);
      }
    }
  } catch (e) {
    console.error(`ensure-k6: ${e.message}`);
    process.exit(soft ? 0 : 1);
  }
}
