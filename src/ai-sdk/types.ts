// The AI SDK shapes toolnorm writes, declared here so that the package does not depend on `ai`.
// They are the subset of `ai`'s DynamicToolUIPart / ToolUIPart / UIMessageChunk that a recorded
// tool call can fill, common to ai 6 and 7 except where `version: 7` says so. The tests check
// every one with `ai`'s own validators, and test/types/ecosystems.ts that each is assignable to
// `ai`'s own types under --strict.

export type JsonValue = null | string | number | boolean | JsonValue[] | { [k: string]: JsonValue };
/** `ProviderMetadata` of the AI SDK: provider name → JSON object. */
export type ProviderMetadata = Record<string, Record<string, JsonValue>>;

export type AiSdkToolState = 'input-streaming' | 'input-available' | 'approval-requested' | 'approval-responded' | 'output-available' | 'output-error' | 'output-denied';

/** An answered approval; `approved: true` is the only one an outcome other than a denial may carry. */
export type AiSdkApproval<A extends boolean = boolean> = { id: string; approved: A; reason?: string };

interface ToolPartBase {
  toolCallId: string;
  /** The part's title (AI SDK 6 and 7 define it on every tool part). */
  title?: string;
  callProviderMetadata?: ProviderMetadata;
}

export type AiSdkToolPartBody =
  | (ToolPartBase & { state: 'input-streaming'; input?: unknown })
  | (ToolPartBase & { state: 'input-available'; input: unknown })
  | (ToolPartBase & { state: 'approval-requested'; input: unknown; approval: { id: string } })
  | (ToolPartBase & { state: 'approval-responded'; input: unknown; approval: AiSdkApproval })
  | (ToolPartBase & { state: 'output-available'; input: unknown; output: unknown; approval?: AiSdkApproval<true> })
  // `input` is a required key here in ai's types (its value may be undefined): an optional key
  // would not be assignable to `UIMessage`'s parts.
  | (ToolPartBase & { state: 'output-error'; input: unknown; errorText: string; approval?: AiSdkApproval<true> })
  | (ToolPartBase & { state: 'output-denied'; input: unknown; approval: AiSdkApproval<false> });

/** `type: "dynamic-tool"` with `toolName`, or `type: "tool-<name>"` without it. */
export type AiSdkToolPart = AiSdkToolPartBody & ({ type: 'dynamic-tool'; toolName: string } | { type: `tool-${string}` });

export type AiSdkChunk =
  | { type: 'start'; messageId?: string }
  | { type: 'finish' }
  | { type: 'tool-input-start'; toolCallId: string; toolName: string; dynamic?: boolean; title?: string; providerMetadata?: ProviderMetadata }
  | { type: 'tool-input-delta'; toolCallId: string; inputTextDelta: string }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown; dynamic?: boolean; title?: string; providerMetadata?: ProviderMetadata }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown; dynamic?: boolean }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string; dynamic?: boolean }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string }
  /** AI SDK 7 only (`version: 7`): AI SDK 6's chunk schema refuses it. */
  | { type: 'tool-approval-response'; approvalId: string; approved: boolean; reason?: string }
  | { type: 'tool-output-denied'; toolCallId: string };

export interface AiSdkOptions {
  /** `dynamic-tool` parts (default), or `tool-<name>` parts as for tools declared to the AI SDK. */
  partType?: 'dynamic' | 'static';
  /** Session id, recorded in the provider metadata (the chunk stream merges sessions into one message). */
  sessionId?: string;
  /**
   * The AI SDK major the chunk stream is for (default 6, which AI SDK 7 also accepts). Only a
   * denial differs: 7 has a chunk for the answer to an approval request, so a streamed denial
   * rebuilds as `output-denied` with `approval: {id, approved: false, reason}`; 6 has none, and
   * no sequence of its chunks rebuilds a denial its own `validateUIMessages` accepts, so on 6 a
   * streamed denial is sent as `tool-output-error` (the code `denied` is in the provider
   * metadata). Parts (`toAiSdkPart`) are the same for both.
   */
  version?: 6 | 7;
}
