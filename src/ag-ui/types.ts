// The AG-UI 1.0 events toolnorm writes, declared here so that the package does not depend on
// `@ag-ui/core`; the tests check every one with its own schemas (`@ag-ui/core/schemas`) and
// verifier, and test/types/ecosystems.ts that they are assignable to its `BaseEvent` and `Event`.

/**
 * The members of @ag-ui/core's `EventType` that toolnorm sends, with the same name and values:
 * TypeScript relates two enums of the same name member by member, so these events are
 * assignable to @ag-ui/core's types without toolnorm's types importing it.
 */
export enum EventType {
  TOOL_CALL_START = 'TOOL_CALL_START',
  TOOL_CALL_ARGS = 'TOOL_CALL_ARGS',
  TOOL_CALL_END = 'TOOL_CALL_END',
  TOOL_CALL_RESULT = 'TOOL_CALL_RESULT',
  MESSAGES_SNAPSHOT = 'MESSAGES_SNAPSHOT',
  ACTIVITY_SNAPSHOT = 'ACTIVITY_SNAPSHOT',
  RUN_STARTED = 'RUN_STARTED',
  RUN_FINISHED = 'RUN_FINISHED',
  SUBAGENT_STARTED = 'SUBAGENT_STARTED',
  SUBAGENT_FINISHED = 'SUBAGENT_FINISHED',
  SUBAGENT_ERROR = 'SUBAGENT_ERROR',
}

// Type aliases, not interfaces: @ag-ui/core's `BaseEvent` has an index signature, which an
// interface does not satisfy.
type Base = {
  /** Epoch milliseconds, when the recording gives a time. */
  timestamp?: number;
  /** toolnorm's data AG-UI has no field for, under `toolnorm`. */
  metadata?: { toolnorm: Record<string, unknown> };
};
type InLane = { subagentRunId?: string };

/** A content part of a tool result (the subset of @ag-ui/core's `ContentPart` toolnorm fills). */
export type AgUiContentPart =
  | { type: 'text'; text: string; metadata?: { toolnorm: Record<string, unknown> } }
  | { type: 'document'; source: { type: 'url'; value: string; mimeType?: string }; metadata?: { toolnorm: Record<string, unknown> } };

export type AgUiToolCall = {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  metadata?: { toolnorm: Record<string, unknown> };
};

/** The messages a client builds from the tool events, as a MESSAGES_SNAPSHOT restates them. */
export type AgUiMessage =
  | (InLane & { id: string; role: 'assistant'; toolCalls: AgUiToolCall[] })
  | (InLane & { id: string; role: 'tool'; toolCallId: string; content: string | AgUiContentPart[]; error?: string; metadata?: { toolnorm: Record<string, unknown> } });

export type AgUiEvent =
  | (Base & { type: EventType.RUN_STARTED; threadId: string; runId: string })
  | (Base & { type: EventType.RUN_FINISHED; threadId: string; runId: string; outcome: { type: 'success'; pendingToolCallIds?: string[] } })
  | (Base & InLane & { type: EventType.TOOL_CALL_START; toolCallId: string; toolCallName: string })
  | (Base & InLane & { type: EventType.TOOL_CALL_ARGS; toolCallId: string; delta: string })
  | (Base & InLane & { type: EventType.TOOL_CALL_END; toolCallId: string })
  | (Base & InLane & { type: EventType.TOOL_CALL_RESULT; messageId: string; toolCallId: string; content: string | AgUiContentPart[]; role: 'tool' })
  | (Base & { type: EventType.MESSAGES_SNAPSHOT; messages: AgUiMessage[] })
  | (Base & InLane & { type: EventType.ACTIVITY_SNAPSHOT; messageId: string; activityType: string; content: Record<string, unknown>; replace?: boolean })
  | (Base & { type: EventType.SUBAGENT_STARTED; subagentRunId: string; name: string; description?: string; parentToolCallId: string; parentSubagentRunId?: string })
  | (Base & { type: EventType.SUBAGENT_FINISHED; subagentRunId: string; outcome: { type: 'success' } | { type: 'suspended' } })
  | (Base & { type: EventType.SUBAGENT_ERROR; subagentRunId: string; message: string; code?: string });

export type AgUiEventType = AgUiEvent['type'];

export interface AgUiOptions {
  /**
   * Restate a thread's messages in a MESSAGES_SNAPSHOT at the end of each run in which a call
   * failed, with `error` set on the failed calls' tool messages (default true). AG-UI's
   * TOOL_CALL_RESULT has no error field: a snapshot is the protocol's only way to set
   * `ToolMessage.error`, and it must restate every message of the thread, so the encoder keeps
   * them (about the size of the thread's output). `false` keeps nothing and sends no snapshot.
   */
  toolMessageErrors?: boolean;
}
