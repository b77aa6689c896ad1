// The seam between the pipeline and the ecosystem encoders (AI SDK, AG-UI, OTel). The encoders
// live in their own subpath modules and are loaded lazily; the pipeline only knows this shape.
import type { Diagnostic, NormalizedToolPart, ToolEvent } from '../contract/index.js';

export interface StreamEncoderSinks {
  /** One output record, printed as a JSON line. */
  output(record: unknown): void;
  diagnostic(d: Diagnostic): void;
}

export interface StreamEncoder {
  /**
   * An event changed a part. `part()` projects it; it costs, so an encoder calls it only when
   * the event means something to it.
   */
  change?(sessionId: string, event: ToolEvent, part: () => NormalizedToolPart): void;
  /**
   * The part is final (or still open at the end of input) and leaves memory: called once per part.
   * `unchanged`: it was given to `preview` just as it is now, so an encoder that prints final parts
   * prints nothing more for it.
   */
  final(sessionId: string, part: NormalizedToolPart, unchanged?: boolean): void;
  /**
   * A live input waits for its next line: this final part is still held for the grace window
   * (late enrichment may change it), and is to be shown now. Called again if it changes, and
   * `final` follows. Only encoders that would otherwise hold back a final part until `final` need it.
   */
  preview?(sessionId: string, part: NormalizedToolPart): void;
  /** End of input: close what is open. */
  end?(): void;
}

export type StreamEncoderFactory = (sinks: StreamEncoderSinks) => StreamEncoder;

/** Runs finished parts through an encoder, as `replay` does: no event history, only final parts. */
export function encodeFinalParts(factory: StreamEncoderFactory, sessions: Iterable<[string, readonly NormalizedToolPart[]]>, sinks: StreamEncoderSinks): void {
  const encoder = factory(sinks);
  for (const [sessionId, parts] of sessions) for (const p of parts) encoder.final(sessionId, p);
  encoder.end?.();
}
