import { describe, expect, it } from 'vitest';
import { colorEnabled, paint } from './color.ts';

describe('colour', () => {
  it('is on for a TTY only, NO_COLOR turns it off and FORCE_COLOR on', () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(colorEnabled({}, { CI: 'true' })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorEnabled({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1', FORCE_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });
  it('paints only when on', () => {
    expect(paint(false).red('x')).toBe('x');
    expect(paint(true).red('x')).toBe('\x1b[31mx\x1b[39m');
  });
});
