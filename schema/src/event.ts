import { Type, type TProperties } from '@sinclair/typebox';
import { Count, EpochMs, NonEmpty, OneOf, def } from './helpers.js';
import { Provider, ToolKind } from './kind.js';
import { ToolError } from './error.js';
import { ToolMetadata } from './metadata.js';
import { CompressionRecord } from './compression.js';
import { FileMutationRecord, ToolCallAssessmentRecord } from './executor.js';
import { ToolApproval } from './substance.js';

export const EventSource = def('EventSource', Type.Object({
  provider: Provider,
  line: Type.Optional(Type.Integer({ minimum: 1, description: '1-based line of the input that produced the event.' })),
  offset: Type.Optional(Count('Byte offset of that line in the input.')),
  file: Type.Optional(Type.String({ description: 'Input file name (as given, never resolved to a machine path) when several files were read.' })),
}, { additionalProperties: false, description: 'Provenance of an event, so any part can be traced back to the bytes that made it.' }));

const envelope = {
  sessionId: NonEmpty('Session (stream) the event belongs to.'),
  partId: NonEmpty('Part the event is about; stable for the whole lifecycle.'),
  at: Type.Optional(EpochMs('When it happened, epoch milliseconds: from the provider when given, else from an explicitly injected clock (`--clock`). Absent when neither gives a time: toolnorm never invents one.')),
  seq: Type.Optional(Count('Position in the session stream, assigned by the store on append.')),
  source: EventSource,
};

const event = <T extends string, P extends TProperties>(type: T, description: string, props: P) =>
  Type.Object({ type: Type.Literal(type, { description: 'Event type (discriminator).' }), ...envelope, ...props }, { additionalProperties: false, description });

const Metadata = Type.Optional(ToolMetadata);
const Elapsed = Type.Optional(Type.Number({ minimum: 0, description: 'Provider-reported duration in milliseconds.' }));

export const ToolStartedEvent = def('ToolStartedEvent', event('tool.started', 'A tool call was announced. Creates the part in state `started`.', {
  name: NonEmpty('Canonical tool name.'),
  kind: ToolKind,
  title: NonEmpty('Human title.'),
  input: Type.Optional(Type.Unknown({ description: 'Input known so far; later deltas or updates may replace it.' })),
  metadata: Metadata,
}));

export const ToolInputDeltaEvent = def('ToolInputDeltaEvent', event('tool.input.delta', 'A fragment of streamed input JSON. Fragments accumulate until a full input replaces them.', {
  delta: Type.String({ description: 'The raw text fragment, appended in order.' }),
}));

export const ToolUpdatedEvent = def('ToolUpdatedEvent', event('tool.updated', 'Refines a part: final input, better title, corrected name or kind, more metadata. Never changes state.', {
  name: Type.Optional(NonEmpty('Replacement tool name.')),
  kind: Type.Optional(ToolKind),
  title: Type.Optional(NonEmpty('Replacement title.')),
  input: Type.Optional(Type.Unknown({ description: 'The full input; replaces any accumulated deltas.' })),
  metadata: Metadata,
}));

export const ToolProgressEvent = def('ToolProgressEvent', event('tool.progress', 'The call is running. Moves a started part to `running`; may carry a progress note or an output fragment.', {
  message: Type.Optional(Type.String({ description: 'Progress note, e.g. a heartbeat or a status line.' })),
  outputDelta: Type.Optional(Type.String({ description: 'Streamed output fragment; it is informational, the completed event carries the result.' })),
  elapsedMs: Elapsed,
  metadata: Metadata,
}));

export const ToolCompletedEvent = def('ToolCompletedEvent', event('tool.completed', 'The call succeeded. Terminal.', {
  output: Type.Optional(Type.Unknown({ description: 'Successful result data.' })),
  elapsedMs: Elapsed,
  metadata: Metadata,
}));

export const ToolFailedEvent = def('ToolFailedEvent', event('tool.failed', 'The call failed, was denied, cancelled or interrupted. Terminal.', {
  error: ToolError,
  elapsedMs: Elapsed,
  metadata: Metadata,
}));

export const ToolOutputCompressedEvent = def('ToolOutputCompressedEvent', event('tool.output.compressed', 'A derived, informational summary of a completed part\'s output. The original completed event stays untouched.', {
  output: Type.Unknown({ description: 'The compressed output.' }),
  compression: CompressionRecord,
}));

export const ToolFileMutatedEvent = def('ToolFileMutatedEvent', event('tool.file.mutated', 'A file side effect of the call, recorded per path.', {
  mutation: FileMutationRecord,
}));

export const ToolPolicyAssessedEvent = def('ToolPolicyAssessedEvent', event('tool.policy.assessed', 'The policy decision on the call, with every gate\'s reason, recorded before it runs.', {
  assessment: ToolCallAssessmentRecord,
}));

export const ToolApprovalRequestedEvent = def('ToolApprovalRequestedEvent', event('tool.approval.requested', 'The call waits for an approval (`approval.state` is `pending`). Sets `metadata.approval`; the state does not change, so a pending approval shows live and stays in the history.', {
  approval: ToolApproval,
}));

export const ToolApprovalResolvedEvent = def('ToolApprovalResolvedEvent', event('tool.approval.resolved', 'The approval was answered or expired (`approved`, `denied`, `expired`). Updates `metadata.approval`, keeping the request\'s time as `requestedAt`; a denial is followed by `tool.failed` with code `denied`.', {
  approval: ToolApproval,
}));

export const ToolEvent = def('ToolEvent', OneOf('type', [
  ToolStartedEvent, ToolInputDeltaEvent, ToolUpdatedEvent, ToolProgressEvent, ToolCompletedEvent, ToolFailedEvent,
  ToolOutputCompressedEvent, ToolFileMutatedEvent, ToolPolicyAssessedEvent, ToolApprovalRequestedEvent, ToolApprovalResolvedEvent,
], { description: 'One step in the life of a tool call. Every part is the reduction of its events.' }));
