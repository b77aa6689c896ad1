// Runs one tool body under a time limit and the caller's AbortSignal. An abort does not wait
// forever for a tool that ignores its signal: after a grace period the call is recorded as
// timed out or cancelled, and the record says the tool had not stopped.
import type { ToolResult } from './types.js';

export type Outcome =
  | { kind: 'result'; result: ToolResult }
  | { kind: 'thrown'; error: unknown }
  | { kind: 'aborted'; cause: 'timeout' | 'cancelled'; reason?: string; stopped: boolean };

export interface DeadlineOptions {
  limitMs: number;
  graceMs: number;
  signal?: AbortSignal;
}

function reasonText(reason: unknown): string | undefined {
  if (reason === undefined) return undefined;
  if (reason instanceof Error) return reason.name === 'AbortError' && reason.message === 'This operation was aborted' ? undefined : reason.message;
  return String(reason);
}

function pause(ms: number): { done: Promise<'grace'>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const done = new Promise<'grace'>((resolve) => { timer = setTimeout(() => resolve('grace'), ms); });
  return { done, cancel: () => clearTimeout(timer) };
}

export async function runWithDeadline(body: (signal: AbortSignal) => Promise<ToolResult>, opts: DeadlineOptions): Promise<Outcome> {
  const controller = new AbortController();
  let cause: 'timeout' | 'cancelled' | undefined;
  let reason: string | undefined;
  // Resolved by abort() itself: cheaper than one more listener on the signal.
  let markAborted: (v: 'aborted') => void = () => {};
  const aborted = new Promise<'aborted'>((resolve) => { markAborted = resolve; });
  const abort = (c: 'timeout' | 'cancelled', r: unknown) => {
    if (cause) return;
    cause = c;
    reason = reasonText(r);
    controller.abort(r);
    markAborted('aborted');
  };
  const onCaller = () => abort('cancelled', opts.signal!.reason);
  if (opts.signal?.aborted) onCaller();
  if (cause) return { kind: 'aborted', cause: 'cancelled', ...(reason ? { reason } : {}), stopped: true };
  opts.signal?.addEventListener('abort', onCaller, { once: true });
  const timer = setTimeout(() => abort('timeout', new DOMException(`timed out after ${opts.limitMs} ms`, 'TimeoutError')), opts.limitMs);
  const running: Promise<Outcome> = (async () => body(controller.signal))().then(
    (result) => ({ kind: 'result', result }),
    (error: unknown) => ({ kind: 'thrown', error }),
  );
  try {
    const first = await Promise.race([running, aborted]);
    if (first !== 'aborted') return first;
    // The tool was told to stop; give it time to do so, so its side effects are captured.
    const grace = pause(opts.graceMs);
    const settled = await Promise.race([running.then(() => 'settled' as const), grace.done]);
    grace.cancel();
    return { kind: 'aborted', cause: cause!, ...(reason ? { reason } : {}), stopped: settled === 'settled' };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCaller);
  }
}
