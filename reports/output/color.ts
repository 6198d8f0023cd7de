// Colour only where a person reads a terminal: https://no-color.org (NO_COLOR, any non-empty
// value, turns it off) and FORCE_COLOR (on, unless "0" or "false") win over the stream's TTY.
// Vitest's colour library would colour a redirected file (it only checks for NO_COLOR), so
// runs of the suite get the decision made here as NO_COLOR / FORCE_COLOR.

export function colorEnabled(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return !/^(0|false)$/i.test(env.FORCE_COLOR);
  return !!stream.isTTY && env.TERM !== 'dumb';
}

/** The environment a child (or a library reading process.env) needs to follow the decision. */
export function colorEnv(on: boolean): Record<string, string | undefined> {
  return on ? { FORCE_COLOR: '1', NO_COLOR: undefined } : { NO_COLOR: '1', FORCE_COLOR: undefined };
}

export interface Paint {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const sgr = (on: boolean, open: number, close: number) => (s: string) => (on ? `\x1b[${open}m${s}\x1b[${close}m` : s);

export function paint(on: boolean): Paint {
  return { red: sgr(on, 31, 39), green: sgr(on, 32, 39), yellow: sgr(on, 33, 39), dim: sgr(on, 2, 22), bold: sgr(on, 1, 22) };
}
