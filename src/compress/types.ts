// The compressor as the rest of the library sees it (core-tools spec: ToolOutputCompressor).
// Compression is informational (Hard Invariant #6): it only ever adds a derived
// `tool.output.compressed` event; the original completed event and its output stay untouched.
import type { NormalizedToolPart, Provider, ToolOutputCompressedEvent } from '../contract/index.js';

export interface CompressContext {
  sessionId: string;
  provider: Provider;
  /** Seq of the completed event holding the original output, when it is stored. */
  seq?: number;
  /** Time for the derived event (epoch ms). */
  /** Time of the derived event; absent when the part has none (never invented). */
  at?: number;
}

export interface ToolOutputCompressor {
  /**
   * The derived event for a completed part whose output exceeds the matching spec's budget, or
   * undefined when no spec matches or the output already fits.
   */
  compressPart(part: NormalizedToolPart, ctx: CompressContext): ToolOutputCompressedEvent | undefined;
}
