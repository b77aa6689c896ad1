// The lines of one input as the normalize loop takes them. A regular file is read straight through.
// A live input (a pipe, a socket, a terminal) may wait between lines: whenever the next line is not
// already read, `idle` runs first (the loop writes what it has produced and commits the store), so
// every record goes out while the input waits instead of sitting in a buffer until the end. An
// interrupt ends the wait: the line being handled is finished, the next one is not started.
import type { Line } from '../pipeline/lines.js';
import { aborted } from './interrupts.js';

/** What `next` can give besides a line: the end of input, an interrupt, or (when asked) an idle input. */
export type Pause = 'end' | 'stopped' | 'idle';

const IDLE = Symbol('idle');
const STOPPED = Symbol('stopped');

/** Resolves after the event loop has run its pending I/O: a next line already read arrives before it. */
const afterIo = () => new Promise<typeof IDLE>((resolve) => setImmediate(resolve, IDLE));

export class LineSource {
  private waiting: Promise<IteratorResult<Line>> | undefined;
  private readonly stop: Promise<typeof STOPPED>;

  constructor(
    private readonly lines: AsyncGenerator<Line>,
    private readonly live: boolean,
    private readonly idle: () => Promise<void>,
    private readonly signal?: AbortSignal,
  ) {
    this.stop = aborted(signal).then(() => STOPPED);
  }

  /** The next line; with `reportIdle`, 'idle' (after `idle` ran) when a live input has no line ready. */
  async next(reportIdle = false): Promise<Line | Pause> {
    if (this.signal?.aborted) return 'stopped';
    const waiting = (this.waiting ??= this.lines.next());
    let r: IteratorResult<Line> | typeof IDLE | typeof STOPPED;
    if (this.live) {
      r = await Promise.race([waiting, afterIo(), this.stop]);
      if (r === IDLE) {
        await this.idle();
        if (reportIdle) return 'idle';
        r = await Promise.race([waiting, this.stop]);
      }
    } else r = this.signal ? await Promise.race([waiting, this.stop]) : await waiting;
    if (r === STOPPED) return 'stopped';
    this.waiting = undefined;
    return r.done ? 'end' : r.value;
  }
}
