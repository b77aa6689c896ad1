// One output shape for every adapter and the executor, per kind, so a UI renders a Bash result
// from Claude, Codex, OpenCode or the executor the same way (README: "Output shape per kind").
import type { TruncationNote } from '../../contract/index.js';
import { createHash } from 'node:crypto';

/** A non-text piece of output. Image data is never kept inline: only its type, size and hash. */
export type OutputBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; mediaType: string; bytes: number; sha256?: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string };

export interface ToolOutput {
  /** What a person reads: the result as text (command output, file text, MCP text content…). */
  text?: string;
  /** Non-text content blocks, in order, when the provider returned more than text. */
  content?: OutputBlock[];
  /** The provider's structured result (Claude tool_use_result, Codex item fields, OpenCode metadata). */
  structured?: unknown;
}

/** Describes a base64 image by size and hash; the caller records a TruncationNote for the data. */
export function imageBlock(mediaType: string, base64: string): { block: OutputBlock; bytes: number } {
  const data = Buffer.from(base64, 'base64');
  return { block: { type: 'image', mediaType, bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') }, bytes: base64.length };
}

export function imageNote(path: string, base64Length: number): TruncationNote {
  return { path, originalBytes: base64Length, reason: 'base64 image data is not kept in parts; media type, size and sha256 are' };
}
