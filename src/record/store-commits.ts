// When a live recording's events reach the store. The batch sink itself says when a batch is due:
// at its size limit, or once its oldest event has waited SINK_MAX_AGE_MS (`due()`). It can only be
// asked when a line arrives, though, and an agent can go quiet for minutes right after a call; a
// reader of the store (`toolnorm view --store`, `replay`) should still see that call. So when
// events are pending and the batch is not yet due, a timer commits them after the same age. Commits
// run one after another (a second never starts while one is writing), so the store holds a prefix
// of the session's events at every moment, whatever kills the process.
import type { ToolEvent } from '../contract/index.js';
import { SINK_MAX_AGE_MS, type StoreSink } from '../store/sink.js';

export class StoreCommitter {
  /** Events handed to the sink since the last commit began. */
  private added = 0;
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private failure: unknown;

  constructor(private readonly sink: StoreSink, private readonly quietMs = SINK_MAX_AGE_MS) {}

  add(e: ToolEvent): void {
    this.sink.add(e);
    this.added++;
  }

  /** After each line: commits when the sink says a batch is due, else makes sure a commit comes if the agent goes quiet. Throws a failed commit's error. */
  async tick(): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    if (!this.added) return;
    if (this.sink.due()) await this.commit();
    else this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.commit().catch((e: unknown) => { this.failure ??= e; });
    }, this.quietMs);
  }

  private commit(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.added = 0;
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
