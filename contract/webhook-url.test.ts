import { describe, expect, it } from 'vitest';
import { internalKind, PROBE_URLS } from './webhook-url.ts';

describe('internalKind: the ranges a webhook URL must not reach when the profile says so', () => {
  it('names loopback, link-local and private addresses, and only those', () => {
    expect(internalKind('https://127.0.0.1:9/x')).toBe('loopback');
    expect(internalKind('http://localhost:8080/x')).toBe('loopback');
    expect(internalKind('https://[::1]/x')).toBe('loopback');
    expect(internalKind('https://169.254.169.254/latest/meta-data/')).toBe('link-local');
    expect(internalKind('https://[fe80::1]/x')).toBe('link-local');
    for (const u of ['https://10.0.0.1/x', 'https://172.16.5.4/x', 'https://172.31.255.255/x', 'https://192.168.1.1/x', 'https://[fd00::1]/x']) expect(internalKind(u), u).toBe('private');
    for (const u of ['https://172.32.0.1/x', 'https://8.8.8.8/x', 'https://receiver.example.com/x', 'not a url']) expect(internalKind(u), u).toBeUndefined();
  });

  it('has a probe of each kind that is what it claims', () => {
    for (const kind of ['loopback', 'link-local', 'private'] as const) expect(internalKind(PROBE_URLS[kind])).toBe(kind);
    expect(PROBE_URLS.http.startsWith('http://')).toBe(true);
    expect(internalKind(PROBE_URLS.http)).toBeUndefined();
  });
});
