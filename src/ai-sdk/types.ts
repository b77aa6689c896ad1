// The AI SDK 6 shapes toolnorm writes, declared here so that the package does not depend on `ai`.
// They are the subset of `ai`'s DynamicToolUIPart / ToolUIPart / UIMessageChunk that a recorded
// tool call can fill; the tests check every one with `ai`'s own validators.

export type JsonValue = null | string | number | boolean | JsonValue[] | { [k: string]: JsonValue };
/** `ProviderMetadata` of the AI SDK: provider name → JSON object. */
export type ProviderMetadata = Record<string, Record<string, JsonValue>>;

export type AiSdkToolState = 'input-streaming' | 'input-available' | 'output-available' | 'output-error' | 'output-denied';

interface ToolPartBase {
  toolCallId: string;
  input?: unknown;
  callProviderMetadata?: ProviderMetadata;
}

export type AiSdkToolPartBody =
  | (ToolPartBase & { state: 'input-streaming' })
  | (ToolPartBase & { state: 'input-available'; input: unknown })
  | (ToolPartBase & { state: 'output-available'; input: unknown; output: unknown })
  | (ToolPartBase & { state: 'output-error'; errorText: string })
  | (ToolPartBase & { state: 'output-denied'; input: unknown; approval: { id: string; approved: false; reason?: string } });

/** `type: "dynamic-tool"` with `toolName`, or `type: "tool-<name>"` without it. */
export type AiSdkToolPart = AiSdkToolPartBody & ({ type: 'dynamic-tool'; toolName: string } | { type: `tool-${string}` });

export type AiSdkChunk =
  | { type: 'start'; messageId?: string }
  | { type: 'finish' }
  | { type: 'tool-input-start'; toolCallId: string; toolName: string; dynamic?: boolean; providerMetadata?: ProviderMetadata }
  | { type: 'tool-input-delta'; toolCallId: string; inputTextDelta: string }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown; dynamic?: boolean; providerMetadata?: ProviderMetadata }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown; dynamic?: boolean }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string; dynamic?: boolean }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string }
  | { type: 'tool-output-denied'; toolCallId: string };

export interface AiSdkOptions {
  /** `dynamic-tool` parts (default), or `tool-<name>` parts as for tools declared to the AI SDK. */
  partType?: 'dynamic' | 'static';
  /** Session id, recorded in the provider metadata (the chunk stream merges sessions into one message). */
  sessionId?: string;
}
