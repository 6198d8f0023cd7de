// `--emit k6-operator`: a ConfigMap holding a `k6 archive` of the scenario (the script,
// its relative imports and the resolved profile env) and a TestRun that runs it with
// `parallelism` pods. The operator hands each pod its execution segment; lendcheck's
// merged threshold judging does not run there, so the manifest says so.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface OperatorInput {
  k6: string;
  script: string;
  env: Record<string, string>;
  outs: string[];
  parallelism: number;
  dir: string;
  name: string;
}

export interface OperatorFiles {
  configMap: string;
  testRun: string;
  archive: string;
}

export function emitK6Operator(i: OperatorInput): OperatorFiles {
  mkdirSync(i.dir, { recursive: true });
  const archive = join(i.dir, `${i.name}.tar`);
  // The key is left out of the archive on purpose: the TestRun reads it from a Secret.
  const { API_KEY: _omit, ...env } = i.env;
  const r = spawnSync(i.k6, ['archive', '--include-system-env-vars=false', ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]), '-O', archive, i.script], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`k6 archive failed: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}`);
  const configMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: i.name, labels: { 'app.kubernetes.io/part-of': 'lendcheck' } },
    binaryData: { 'archive.tar': readFileSync(archive).toString('base64') },
  };
  const testRun = {
    apiVersion: 'k6.io/v1alpha1',
    kind: 'TestRun',
    metadata: {
      name: i.name,
      labels: { 'app.kubernetes.io/part-of': 'lendcheck' },
      annotations: {
        'lendcheck.dev/thresholds': 'k6 judges thresholds per pod; merge the pods\' outputs (e.g. Prometheus) to judge them on the whole run',
      },
    },
    spec: {
      parallelism: i.parallelism,
      script: { configMap: { name: i.name, file: 'archive.tar' } },
      arguments: i.outs.map((o) => `--out ${o}`).join(' '),
      runner: {
        env: [{ name: 'API_KEY', valueFrom: { secretKeyRef: { name: `${i.name}-api-key`, key: 'API_KEY', optional: true } } }],
      },
    },
  };
  // JSON manifests: kubectl takes them as they are, and no YAML package is a dependency.
  const files = { configMap: join(i.dir, `${i.name}-configmap.json`), testRun: join(i.dir, `${i.name}-testrun.json`), archive };
  writeFileSync(files.configMap, JSON.stringify(configMap, null, 2) + '\n');
  writeFileSync(files.testRun, JSON.stringify(testRun, null, 2) + '\n');
  return files;
}
