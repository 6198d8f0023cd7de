// k6 provides console at runtime, but @types/k6 does not declare it and the DOM lib
// would pretend browser APIs exist; declare only what the scenarios use.
declare const console: {
  log(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
};
