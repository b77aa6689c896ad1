// DefaultToolRepository: answers questions about a session by replaying its events.
import type { Diagnostic, NormalizedToolPart, ToolInvocationRecord } from '../contract/index.js';
import type { EventStore } from '../store/types.js';
import { sessionStateCodec } from './codec.js';
import { diagnosticsOf, partRecords, projectInvocation, projectPart, projectParts, type ProjectOptions } from './projector.js';
import { createReducer, type ReducerOptions } from './reducer.js';
import { EventReplayer } from './replayer.js';
import { emptySessionState, withPartMap, type ToolSessionState } from './state.js';

export interface RepositoryOptions extends ReducerOptions {
  snapshotEvery?: number;
}

export class ToolRepository {
  readonly replayer: EventReplayer<ToolSessionState>;

  constructor(readonly store: EventStore, options: RepositoryOptions = {}) {
    this.replayer = new EventReplayer(store, {
      initial: emptySessionState,
      reduce: createReducer(options),
      codec: sessionStateCodec,
      snapshotEvery: options.snapshotEvery ?? 0,
      // A replay holds its state alone, so its parts change in place (an OwnedMap) instead of
      // path-copying a persistent map per event: a third of the reducer's time on replay.
      scratch: { adopt: (s) => withPartMap(s, true), release: (s) => withPartMap(s, false) },
    });
  }

  /** The state at `toSeq` (default: the head), persistent like any reducer state. */
  async state(sessionId: string, toSeq?: number): Promise<ToolSessionState> {
    return (await this.replayer.replay(sessionId, { toSeq })).state;
  }

  /** The state for a question answered here and dropped: no conversion back to a persistent map. */
  private async scratchState(sessionId: string): Promise<ToolSessionState> {
    return (await this.replayer.replay(sessionId, { keepScratch: true })).state;
  }

  /** The parts of a session, in first-seen order. */
  async parts(sessionId: string, options: ProjectOptions = {}): Promise<NormalizedToolPart[]> {
    return projectParts(await this.scratchState(sessionId), options);
  }

  /** One part by id, or undefined. The default view is the full, uncompressed output. */
  async part(sessionId: string, partId: string, options: ProjectOptions = {}): Promise<NormalizedToolPart | undefined> {
    const record = (await this.scratchState(sessionId)).parts.get(partId);
    return record && projectPart(record, options);
  }

  async diagnostics(sessionId: string): Promise<Diagnostic[]> {
    return diagnosticsOf(await this.scratchState(sessionId));
  }

  /** Executor history records (ToolInvocationRecord), projected from the same events. */
  async invocations(sessionId: string): Promise<ToolInvocationRecord[]> {
    return partRecords(await this.scratchState(sessionId)).map(projectInvocation);
  }
}
