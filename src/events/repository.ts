// DefaultToolRepository: answers questions about a session by replaying its events.
import type { Diagnostic, NormalizedToolPart, ToolInvocationRecord } from '../contract/index.js';
import type { EventStore } from '../store/types.js';
import { sessionStateCodec } from './codec.js';
import { diagnosticsOf, partRecords, projectInvocation, projectPart, projectParts, type ProjectOptions } from './projector.js';
import { createReducer, type ReducerOptions } from './reducer.js';
import { EventReplayer } from './replayer.js';
import { emptySessionState, type ToolSessionState } from './state.js';

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
    });
  }

  async state(sessionId: string, toSeq?: number): Promise<ToolSessionState> {
    return (await this.replayer.replay(sessionId, { toSeq })).state;
  }

  /** The parts of a session, in first-seen order. */
  async parts(sessionId: string, options: ProjectOptions = {}): Promise<NormalizedToolPart[]> {
    return projectParts(await this.state(sessionId), options);
  }

  /** One part by id, or undefined. The default view is the full, uncompressed output. */
  async part(sessionId: string, partId: string, options: ProjectOptions = {}): Promise<NormalizedToolPart | undefined> {
    const record = (await this.state(sessionId)).parts.get(partId);
    return record && projectPart(record, options);
  }

  async diagnostics(sessionId: string): Promise<Diagnostic[]> {
    return diagnosticsOf(await this.state(sessionId));
  }

  /** Executor history records (ToolInvocationRecord), projected from the same events. */
  async invocations(sessionId: string): Promise<ToolInvocationRecord[]> {
    return partRecords(await this.state(sessionId)).map(projectInvocation);
  }
}
