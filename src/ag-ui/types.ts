// The AG-UI 1.0 events toolnorm writes, declared here so that the package does not depend on
// `@ag-ui/core`; the tests check every one with its own schemas (`@ag-ui/core/schemas`).

interface Base {
  /** Epoch milliseconds, when the recording gives a time. */
  timestamp?: number;
  /** toolnorm's data AG-UI has no field for, under `toolnorm`. */
  metadata?: { toolnorm: Record<string, unknown> };
}
interface InLane { subagentRunId?: string }

export type AgUiEvent =
  | (Base & { type: 'RUN_STARTED'; threadId: string; runId: string })
  | (Base & { type: 'RUN_FINISHED'; threadId: string; runId: string; outcome: { type: 'success'; pendingToolCallIds?: string[] } })
  | (Base & InLane & { type: 'TOOL_CALL_START'; toolCallId: string; toolCallName: string })
  | (Base & InLane & { type: 'TOOL_CALL_ARGS'; toolCallId: string; delta: string })
  | (Base & InLane & { type: 'TOOL_CALL_END'; toolCallId: string })
  | (Base & InLane & { type: 'TOOL_CALL_RESULT'; messageId: string; toolCallId: string; content: string; role: 'tool' })
  | (Base & InLane & { type: 'ACTIVITY_SNAPSHOT'; messageId: string; activityType: string; content: Record<string, unknown>; replace?: boolean })
  | (Base & { type: 'SUBAGENT_STARTED'; subagentRunId: string; name: string; description?: string; parentToolCallId: string; parentSubagentRunId?: string })
  | (Base & { type: 'SUBAGENT_FINISHED'; subagentRunId: string; outcome: { type: 'success' } })
  | (Base & { type: 'SUBAGENT_ERROR'; subagentRunId: string; message: string; code?: string });

export type AgUiEventType = AgUiEvent['type'];
