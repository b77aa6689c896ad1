// NormalizedToolPart → AI SDK 6 tool UI part. The state table is the whole mapping, with the typed
// `metadata.approval` choosing the approval states (never the provider's input); everything the
// AI SDK has no field for goes under `callProviderMetadata.toolnorm`, the one place it allows
// provider data on a tool part (unknown keys are stripped by its validator).
import type { NormalizedToolPart, ToolState } from '../contract/index.js';
import type { AiSdkApproval, AiSdkOptions, AiSdkToolPart, AiSdkToolState, JsonValue, ProviderMetadata } from './types.js';

export const AI_SDK_STATES: Record<ToolState, AiSdkToolState> = {
  started: 'input-streaming',
  running: 'input-available',
  complete: 'output-available',
  error: 'output-error',
};

/** A failure the user or a policy refused: the AI SDK's `output-denied`, not `output-error`. */
export const isDenied = (part: NormalizedToolPart): boolean => part.state === 'error' && (part.error.code === 'denied' || part.metadata?.approval?.state === 'denied');

const isOpen = (part: NormalizedToolPart) => part.state === 'started' || part.state === 'running';

/**
 * The AI SDK state: a call still open waits for its approval (`approval-requested`) or has its
 * answer and has not ended yet (`approval-responded`); an expired request is no answer, so the
 * call shows as it stands. Ended calls follow the table, a denial being `output-denied`.
 */
export function aiSdkState(part: NormalizedToolPart): AiSdkToolState {
  if (isDenied(part)) return 'output-denied';
  const approval = part.metadata?.approval?.state;
  if (isOpen(part) && approval === 'pending') return 'approval-requested';
  if (isOpen(part) && (approval === 'approved' || approval === 'denied')) return 'approval-responded';
  return AI_SDK_STATES[part.state];
}

/**
 * The approval id. toolnorm cannot answer a provider's request, and the typed approval has no id
 * of its own: a call has at most one approval, so the call id names it.
 */
export const approvalIdOf = (part: NormalizedToolPart): string => part.id;

/** The answer as the AI SDK writes it, when the approval was answered. */
function answerOf(part: NormalizedToolPart): AiSdkApproval | undefined {
  const a = part.metadata?.approval;
  if (a?.state !== 'approved' && a?.state !== 'denied') return undefined;
  return { id: approvalIdOf(part), approved: a.state === 'approved', ...(a.reason ? { reason: a.reason } : {}) };
}

/** `approval` of an outcome other than a denial: only a granted one may be there. */
const granted = (part: NormalizedToolPart): { approval?: AiSdkApproval<true> } => {
  const a = answerOf(part);
  return a?.approved === true ? { approval: a as AiSdkApproval<true> } : {};
};

/** `callProviderMetadata.toolnorm`: name, kind, title, timing, metadata, error code and details. */
export function providerMetadataOf(part: NormalizedToolPart, options: AiSdkOptions = {}): ProviderMetadata {
  const t: Record<string, JsonValue> = { name: part.name, kind: part.kind, title: part.title };
  if (options.sessionId !== undefined) t.sessionId = options.sessionId;
  if (part.timing) t.timing = part.timing as JsonValue;
  if (part.metadata) t.metadata = part.metadata as JsonValue;
  if (part.state === 'error' && (part.error.code !== undefined || part.error.details !== undefined)) {
    const e: Record<string, JsonValue> = {};
    if (part.error.code !== undefined) e.code = part.error.code;
    if (part.error.details !== undefined) e.details = part.error.details as JsonValue;
    t.error = e;
  }
  return { toolnorm: t };
}

/** The part's `title` field, when it has one (the schema lets a title be empty). */
export const titleOf = (part: NormalizedToolPart): { title?: string } => (part.title ? { title: part.title } : {});

/** The reason of a denial, as the approval and the stream's answer carry it. */
export const denialReason = (part: NormalizedToolPart): { reason?: string } => {
  const reason = part.metadata?.approval?.reason || (part.state === 'error' ? part.error.message : undefined);
  return reason ? { reason } : {};
};

export const toolPartType = (name: string, options: AiSdkOptions): { type: 'dynamic-tool'; toolName: string } | { type: `tool-${string}` } =>
  options.partType === 'static' ? { type: `tool-${name}` } : { type: 'dynamic-tool', toolName: name };

/** An AI SDK 6/7 tool UI part; `ai`'s `validateUIMessages` accepts every one (test/ai-sdk). */
export function toAiSdkPart(part: NormalizedToolPart, options: AiSdkOptions = {}): AiSdkToolPart {
  const head = { ...toolPartType(part.name, options), toolCallId: part.id, ...titleOf(part) };
  const callProviderMetadata = providerMetadataOf(part, options);
  switch (aiSdkState(part)) {
    case 'input-streaming':
      return { ...head, state: 'input-streaming', ...(part.input !== undefined ? { input: part.input } : {}), callProviderMetadata };
    case 'input-available':
      return { ...head, state: 'input-available', input: part.input ?? null, callProviderMetadata };
    case 'approval-requested':
      return { ...head, state: 'approval-requested', input: part.input ?? null, callProviderMetadata, approval: { id: approvalIdOf(part) } };
    case 'approval-responded':
      return { ...head, state: 'approval-responded', input: part.input ?? null, callProviderMetadata, approval: answerOf(part)! };
    case 'output-available':
      // `output` is required in this state, even when the call returned nothing.
      return { ...head, state: 'output-available', input: part.input ?? null, output: part.state === 'complete' && part.output !== undefined ? part.output : null, callProviderMetadata, ...granted(part) };
    case 'output-denied':
      return { ...head, state: 'output-denied', input: part.input ?? null, callProviderMetadata, approval: { id: approvalIdOf(part), approved: false, ...denialReason(part) } };
    case 'output-error':
      return { ...head, state: 'output-error', input: part.input ?? null, errorText: part.state === 'error' ? part.error.message : '', callProviderMetadata, ...granted(part) };
  }
}
