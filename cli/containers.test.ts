import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

// What can be checked of the container files without an engine: they parse, wire the three
// services, publish on loopback only, and name files and commands that exist.

const root = join(import.meta.dirname, '..');
type Service = { image?: string; build?: unknown; command?: string[]; ports?: string[]; volumes?: string[]; environment?: Record<string, string>; depends_on?: Record<string, unknown>; network_mode?: string };
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Service> };
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');

const IMAGE = 'lendcheck-sandbox:local';

describe('docker-compose.yml', () => {
  it('wires the sandbox, the chaos receiver and k6 built from the pinned k6', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['k6', 'receiver', 'sandbox']);
    expect(compose.services.sandbox.build).toBe('.');
    expect(compose.services.sandbox.image).toBe(IMAGE);
    expect(compose.services.sandbox.command?.[0]).toBe('sandbox');
    expect(compose.services.receiver.command?.slice(0, 2)).toEqual(['chaos', 'receive']);
    expect(compose.services.receiver.network_mode).toBe('service:sandbox');
    expect(compose.services.k6.image).toBe('lendcheck-k6:local');
    expect(existsSync(join(root, 'scripts/k6-image/build.sh'))).toBe(true);
    expect(compose.services.k6.environment?.BASE_URL).toBe('http://sandbox:8080/v1');
    expect(Object.keys(compose.services.k6.depends_on ?? {})).toEqual(['sandbox']);
  });

  it('passes k6 only variables the scenarios read', () => {
    const config = readFileSync(join(root, 'scenarios/lib/config.ts'), 'utf8');
    for (const k of Object.keys(compose.services.k6.environment ?? {})) expect(config, k).toContain(`'${k}'`);
  });

  it('runs a scenario that exists in ./scenarios', () => {
    const cmd = compose.services.k6.command ?? [];
    expect(cmd[0]).toBe('run');
    expect(cmd[1]).toMatch(/^scenarios\/.+\.ts$/);
    expect(existsSync(join(root, cmd[1]))).toBe(true);
  });

  it('publishes every port on 127.0.0.1 only', () => {
    const ports = Object.values(compose.services).flatMap((s) => s.ports ?? []);
    expect(ports.length).toBeGreaterThanOrEqual(1);
    for (const p of ports) expect(p).toMatch(/^127\.0\.0\.1:(\d+|\$\{\w+:-\d+\}):\d+$/);
  });
});

describe('the commands the containers run', () => {
  it('exist in the CLI with the flags the files pass', async () => {
    const { buildProgram } = await import('./main.ts');
    const program = buildProgram();
    const find = (path: string[]) => path.reduce<import('commander').Command | undefined>((c, n) => c?.commands.find((x) => x.name() === n), program);
    const flagsOf = (cmd: string[]) => cmd.filter((a) => a.startsWith('--'));
    for (const [path, args] of [
      [['sandbox'], compose.services.sandbox.command!.slice(1)],
      [['chaos', 'receive'], compose.services.receiver.command!.slice(2)],
    ] as const) {
      const c = find([...path]);
      expect(c, `lendcheck ${path.join(' ')}`).toBeDefined();
      const known = c!.options.map((o) => o.long);
      for (const f of flagsOf([...args])) expect(known, `lendcheck ${path.join(' ')} ${f}`).toContain(f);
    }
  });
});

describe('Dockerfile', () => {
  it('compiles in a build stage and runs the compiled CLI with runtime dependencies only', () => {
    expect(dockerfile).toMatch(/^FROM node:20[-.\w]* AS build$/m);
    expect(dockerfile).toMatch(/npm run build/);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["node", "dist\/cli\/bin.js"\]$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(existsSync(join(root, '.dockerignore'))).toBe(true);
  });
});

describe('examples/github-actions.yml', () => {
  it('is a workflow that runs the gate and publishes the report and the JUnit XML', () => {
    const wf = parse(readFileSync(join(root, 'examples/github-actions.yml'), 'utf8')) as { jobs: Record<string, { steps: Array<{ run?: string; uses?: string; with?: Record<string, string> }> }> };
    const steps = Object.values(wf.jobs).flatMap((j) => j.steps);
    expect(steps.some((s) => s.run?.includes('lendcheck gate'))).toBe(true);
    expect(steps.some((s) => s.run === 'npm ci && npm start')).toBe(true);
    expect(steps.some((s) => s.with?.report_paths === 'lendcheck-reports/*/junit.xml')).toBe(true);
  });
});
