// When a live recording's events reach the store. The batch sink commits every 1000 events
// (`due()`), which on a live agent stream can mean minutes; a reader of the store (`toolnorm view
// --store`, `replay`) should see a call soon after it happens. So events are committed at most
// COMMIT_MS after they arrive: at the next line when that is later, or by a timer when the agent
// goes quiet. Commits run one after another (a second never starts while one is writing), so the
// store holds a prefix of the session's events at every moment, whatever kills the process.
import type { ToolEvent } from '../contract/index.js';
import type { StoreSink } from '../store/sink.js';

export const COMMIT_MS = 250;

export class StoreCommitter {
  /** Events handed to the sink since the last commit began. */
  private added = 0;
  private lastCommit = Date.now();
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private failure: unknown;

  constructor(private readonly sink: StoreSink, private readonly intervalMs = COMMIT_MS) {}

  add(e: ToolEvent): void {
    this.sink.add(e);
    this.added++;
  }

  /** After each line: commits when due, else makes sure a commit comes within the interval. Throws a failed commit's error. */
  async tick(): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    if (!this.added) return;
    if (this.sink.due() || Date.now() - this.lastCommit >= this.intervalMs) await this.commit();
    else this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.commit().catch((e: unknown) => { this.failure ??= e; });
    }, this.intervalMs);
  }

  private commit(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.added = 0;
    this.lastCommit = Date.now();
    this.chain = this.chain.then(() => this.sink.flush());
    return this.chain;
  }

  /** End of the stream: commits the rest. */
  async close(): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    await this.commit();
  }

  /** Normalizing failed: no more commits; waits for one in flight. */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.chain.catch(() => {});
  }
}
