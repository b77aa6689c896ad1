// EventReplayer<S>: rebuilds any state S from a stored stream, starting from the newest usable
// snapshot, and can take snapshots as it goes. Generic so other projections can reuse it.
import type { ToolEvent } from '../contract/index.js';
import { eachStored } from '../store/batches.js';
import type { EventStore } from '../store/types.js';

export interface StateCodec<S> {
  encode(state: S): unknown;
  decode(data: unknown): S;
}

export interface ReplayerSpec<S> {
  initial: () => S;
  reduce: (state: S, event: ToolEvent) => S;
  codec: StateCodec<S>;
  /** Save a snapshot every N replayed events (0 = never). */
  snapshotEvery?: number;
  /**
   * A cheaper form of S for a replay that holds its state alone until it returns (from the start
   * or from a snapshot, never from a caller's state): `adopt` turns a start state into it, and
   * `release` turns the result back into the shareable form replay() returns.
   */
  scratch?: { adopt(state: S): S; release(state: S): S };
}

export interface ReplayOptions {
  /** Replay events from this seq on, applied to `state` (default: from a snapshot, or from 1). */
  fromSeq?: number;
  /** Stop after this seq. */
  toSeq?: number;
  /** Start state for `fromSeq`; required with `fromSeq` > 1. */
  state?: unknown;
  /** Ignore snapshots. */
  noSnapshot?: boolean;
  /**
   * @internal Return the scratch form of the state (see ReplayerSpec.scratch) without releasing it:
   * for a caller that only reads the result and drops it.
   */
  keepScratch?: boolean;
}

export class EventReplayer<S> {
  constructor(private readonly store: EventStore, private readonly spec: ReplayerSpec<S>) {}

  /** Applies events `fromSeq..toSeq` to a given state: replaying a prefix then the rest equals replaying it all. */
  async replayFrom(sessionId: string, state: S, fromSeq: number, toSeq?: number): Promise<{ state: S; seq: number }> {
    let seq = fromSeq - 1;
    let sinceSnapshot = 0;
    const every = this.spec.snapshotEvery ?? 0;
    const reduce = this.spec.reduce;
    await eachStored(this.store.read(sessionId, { fromSeq, toSeq }), (e) => {
      state = reduce(state, e);
      seq = e.seq;
      if (every > 0 && ++sinceSnapshot >= every) {
        sinceSnapshot = 0;
        return this.store.saveSnapshot({ sessionId, seq, data: this.spec.codec.encode(state) });
      }
    });
    return { state, seq };
  }

  /** Rebuilds the state of a session up to `toSeq` (default: the head). */
  async replay(sessionId: string, options: ReplayOptions = {}): Promise<{ state: S; seq: number }> {
    if (options.fromSeq !== undefined && options.fromSeq > 1) {
      if (options.state === undefined) throw new Error('replay: a fromSeq after the start needs the state at fromSeq - 1');
      return this.replayFrom(sessionId, options.state as S, options.fromSeq, options.toSeq);
    }
    const snap = options.noSnapshot ? undefined : await this.store.loadSnapshot(sessionId, options.toSeq);
    const start = snap ? this.spec.codec.decode(snap.data) : this.spec.initial();
    const scratch = this.spec.scratch;
    if (!scratch) return this.replayFrom(sessionId, start, (snap?.seq ?? 0) + 1, options.toSeq);
    const done = await this.replayFrom(sessionId, scratch.adopt(start), (snap?.seq ?? 0) + 1, options.toSeq);
    return options.keepScratch ? done : { state: scratch.release(done.state), seq: done.seq };
  }
}
