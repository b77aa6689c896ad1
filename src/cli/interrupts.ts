// SIGINT, SIGTERM and SIGHUP while a command runs: the first one asks the command to stop after the
// line (or event) it is handling, write what it has produced, commit the store's pending batch and
// exit with the shell's code for that signal (128 + its number). A second one exits at once: the
// user asked twice, and a store batch half sent is rolled back by the database, never half kept.
export const SIGNAL_EXIT_CODES = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;

export type StopSignal = keyof typeof SIGNAL_EXIT_CODES;

const SIGNALS = Object.keys(SIGNAL_EXIT_CODES) as StopSignal[];

export interface Interrupts {
  /** Aborted at the first signal. */
  readonly signal: AbortSignal;
  /** The first signal received, if any. */
  readonly received: StopSignal | undefined;
  /** 128 + the signal's number once one was received; else `code`. */
  exitCode(code: number): number;
  /** Removes the handlers: the process's default behaviour is back. */
  dispose(): void;
}

/**
 * Handles the three stop signals for as long as a command runs. `exit` ends the process on a second
 * signal (injected so a test can see it called); by default `process.exit`.
 */
export function watchInterrupts(exit: (code: number) => void = (code) => process.exit(code)): Interrupts {
  const stop = new AbortController();
  let received: StopSignal | undefined;
  const handlers = new Map<StopSignal, () => void>();
  for (const sig of SIGNALS) {
    const handler = () => {
      if (received !== undefined) {
        exit(SIGNAL_EXIT_CODES[sig]);
        return;
      }
      received = sig;
      stop.abort();
    };
    handlers.set(sig, handler);
    process.on(sig, handler);
  }
  return {
    signal: stop.signal,
    get received() { return received; },
    exitCode: (code) => (received === undefined ? code : SIGNAL_EXIT_CODES[received]),
    dispose() {
      for (const [sig, handler] of handlers) process.off(sig, handler);
      handlers.clear();
    },
  };
}

/**
 * Resolves when `signal` aborts (never, without one): to race a wait against an interrupt.
 * One promise per signal: each input of a run (a LineSource per file) waits on the same signal,
 * and a listener per file made Node warn (MaxListenersExceededWarning) on a folder of more than ten.
 */
const abortPromises = new WeakMap<AbortSignal, Promise<void>>();
const NEVER = new Promise<void>(() => {});

export function aborted(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return NEVER;
  let p = abortPromises.get(signal);
  if (!p) {
    p = new Promise((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
    abortPromises.set(signal, p);
  }
  return p;
}
