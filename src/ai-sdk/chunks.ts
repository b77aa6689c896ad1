// The same parts as an AI SDK 6 UI message chunk stream, for a server route to pipe to `useChat`.
// One stream is one assistant message: `start`, then each call's chunks as it happens, then
// `finish`. The final chunks of a call repeat `tool-input-available` with the final input and
// metadata, so that a client reading the stream (`readUIMessageStream`) ends with exactly the parts
// `toAiSdkPart` gives; output chunks carry no provider metadata for the same reason.
import type { NormalizedToolPart, ToolEvent } from '../contract/index.js';
import type { StreamEncoder, StreamEncoderFactory } from '../pipeline/encoder.js';
import { aiSdkState, approvalIdOf, denialReason, providerMetadataOf, titleOf } from './part.js';
import type { AiSdkChunk, AiSdkOptions } from './types.js';

/** How far a call has been streamed. */
const Sent = { Started: 1, Available: 2, Done: 3 } as const;
type Sent = (typeof Sent)[keyof typeof Sent];

interface CallState {
  sent: Sent;
  doneMeta?: string;
  doneInput?: unknown;
  /** `tool-approval-request` went out (the call waited for an approval). */
  asked?: boolean;
  /** `tool-approval-response` went out (AI SDK 7 only). */
  answered?: boolean;
}

export class AiSdkChunkEncoder implements StreamEncoder {
  private readonly calls = new Map<string, CallState>();
  private started = false;
  private readonly dynamic: boolean;

  constructor(private readonly emit: (chunk: AiSdkChunk) => void, private readonly options: Omit<AiSdkOptions, 'sessionId'> = {}) {
    this.dynamic = options.partType !== 'static';
  }

  private key(sessionId: string, id: string): string {
    return `${sessionId}\u0000${id}`;
  }

  private open(sessionId: string): void {
    if (this.started) return;
    this.started = true;
    this.emit({ type: 'start', messageId: sessionId });
  }

  private opts(sessionId: string): AiSdkOptions {
    return { ...this.options, sessionId };
  }

  private startCall(sessionId: string, part: NormalizedToolPart): CallState {
    this.open(sessionId);
    const c: CallState = { sent: Sent.Started };
    this.calls.set(this.key(sessionId, part.id), c);
    this.emit({ type: 'tool-input-start', toolCallId: part.id, toolName: part.name, ...(this.dynamic ? { dynamic: true } : {}), ...titleOf(part), providerMetadata: providerMetadataOf(part, this.opts(sessionId)) });
    return c;
  }

  private available(sessionId: string, part: NormalizedToolPart, c: CallState): string {
    const providerMetadata = providerMetadataOf(part, this.opts(sessionId));
    this.emit({ type: 'tool-input-available', toolCallId: part.id, toolName: part.name, input: part.input ?? null, ...(this.dynamic ? { dynamic: true } : {}), ...titleOf(part), providerMetadata });
    if (c.sent < Sent.Available) c.sent = Sent.Available;
    return JSON.stringify(providerMetadata);
  }

  /**
   * The approval as far as the part has it (metadata.approval): with AI SDK 7 the request when the
   * call waits and the answer when it comes. AI SDK 6 has no chunk for the answer, and a request
   * left unanswered on a call that then ends fails its validateUIMessages; so for AI SDK 6 the
   * request goes out only at `final`, for a call still waiting when its stream ends.
   */
  private approval(sessionId: string, part: NormalizedToolPart, c: CallState, final = false): void {
    const state = part.metadata?.approval?.state;
    if (this.options.version !== 7 && !(final && state === 'pending')) return;
    if (state !== 'pending' && state !== 'approved' && state !== 'denied') return;
    if (c.sent === Sent.Started) this.available(sessionId, part, c);
    const approvalId = approvalIdOf(part);
    if (!c.asked) {
      this.emit({ type: 'tool-approval-request', approvalId, toolCallId: part.id });
      c.asked = true;
    }
    // A denial whose reason comes only with the failure that follows it (the contract's order) is
    // answered with the outcome, so the answer carries the reason the part's `approval` has.
    const reasonLater = state === 'denied' && !final && !part.metadata?.approval?.reason && (part.state === 'started' || part.state === 'running');
    if (state !== 'pending' && this.options.version === 7 && !c.answered && !reasonLater) {
      this.emit({ type: 'tool-approval-response', approvalId, approved: state === 'approved', ...(state === 'denied' ? denialReason(part) : part.metadata?.approval?.reason ? { reason: part.metadata.approval.reason } : {}) });
      c.answered = true;
    }
  }

  private outcome(sessionId: string, part: NormalizedToolPart, c: CallState): void {
    const meta = this.available(sessionId, part, c);
    const dyn = this.dynamic ? { dynamic: true } : {};
    if (aiSdkState(part) !== 'output-denied') this.approval(sessionId, part, c);
    switch (aiSdkState(part)) {
      case 'output-available':
        this.emit({ type: 'tool-output-available', toolCallId: part.id, output: part.state === 'complete' && part.output !== undefined ? part.output : null, ...dyn });
        break;
      case 'output-error':
        this.emit({ type: 'tool-output-error', toolCallId: part.id, errorText: part.state === 'error' ? part.error.message : '', ...dyn });
        break;
      case 'output-denied':
        if (this.options.version === 7) {
          // The request, the answer, the outcome: the client rebuilds approval {id, approved: false, reason}.
          const approvalId = approvalIdOf(part);
          if (!c.asked) this.emit({ type: 'tool-approval-request', approvalId, toolCallId: part.id });
          if (!c.answered) this.emit({ type: 'tool-approval-response', approvalId, approved: false, ...denialReason(part) });
          c.asked = c.answered = true;
          this.emit({ type: 'tool-output-denied', toolCallId: part.id });
        } else {
          // AI SDK 6 has no chunk for the answer (its client records it), and a denial without one
          // fails its validateUIMessages; so the outcome is sent as the error it also is.
          this.emit({ type: 'tool-output-error', toolCallId: part.id, errorText: part.state === 'error' ? part.error.message : '', ...dyn });
        }
        break;
      default:
        return;
    }
    c.sent = Sent.Done;
    c.doneMeta = meta;
    c.doneInput = part.input;
  }

  change(sessionId: string, e: ToolEvent, part: () => NormalizedToolPart): void {
    let c = this.calls.get(this.key(sessionId, e.partId));
    if (!c) c = this.startCall(sessionId, part());
    if (c.sent === Sent.Done) return;
    switch (e.type) {
      case 'tool.input.delta':
        if (c.sent === Sent.Started) this.emit({ type: 'tool-input-delta', toolCallId: e.partId, inputTextDelta: e.delta });
        break;
      case 'tool.progress':
        if (c.sent === Sent.Started) this.available(sessionId, part(), c);
        break;
      case 'tool.completed':
      case 'tool.failed':
        this.outcome(sessionId, part(), c);
        break;
      case 'tool.approval.requested':
      case 'tool.approval.resolved':
        this.approval(sessionId, part(), c);
        break;
    }
  }

  final(sessionId: string, part: NormalizedToolPart): void {
    const key = this.key(sessionId, part.id);
    const c = this.calls.get(key) ?? this.startCall(sessionId, part);
    this.calls.delete(key);
    this.settle(sessionId, part, c, true);
  }

  /** Live input, paused: a final part's enrichment since its outcome goes out now rather than at `final`. */
  preview(sessionId: string, part: NormalizedToolPart): void {
    this.settle(sessionId, part, this.calls.get(this.key(sessionId, part.id)) ?? this.startCall(sessionId, part));
  }

  /** Sends what the call still lacks of the part as it is: its outcome, or enrichment after it. */
  private settle(sessionId: string, part: NormalizedToolPart, c: CallState, final = false): void {
    if (c.sent === Sent.Done) {
      // Enrichment after the outcome (e.g. a subagent's task notification) is sent again whole.
      if (c.doneInput !== part.input || c.doneMeta !== JSON.stringify(providerMetadataOf(part, this.opts(sessionId)))) this.outcome(sessionId, part, c);
      return;
    }
    if (part.state === 'complete' || part.state === 'error') this.outcome(sessionId, part, c);
    else {
      if (part.state === 'running' && c.sent === Sent.Started) this.available(sessionId, part, c);
      this.approval(sessionId, part, c, final);
    }
  }

  end(): void {
    if (this.started) this.emit({ type: 'finish' });
  }
}

/** Pipeline encoder for `--to ai-sdk-stream`. */
export const aiSdkStreamEncoder = (options: Omit<AiSdkOptions, 'sessionId'> = {}): StreamEncoderFactory => (sinks) => new AiSdkChunkEncoder((c) => sinks.output(c), options);

/** The chunk stream of finished parts (e.g. from `collect`), in order. */
export function aiSdkChunksOf(sessions: Iterable<[string, readonly NormalizedToolPart[]]>, options: Omit<AiSdkOptions, 'sessionId'> = {}): AiSdkChunk[] {
  const out: AiSdkChunk[] = [];
  const enc = new AiSdkChunkEncoder((c) => out.push(c), options);
  for (const [sid, parts] of sessions) for (const p of parts) enc.final(sid, p);
  enc.end();
  return out;
}
