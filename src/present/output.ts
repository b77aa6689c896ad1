// One output shape for every adapter and the executor, per kind, so a UI renders a Bash result
// from Claude, Codex, OpenCode or the executor the same way (docs/contract.md#output-shape-per-kind).
import type { TruncationNote } from '../contract/index.js';
import { hash } from 'node:crypto';

// The shape itself is the contract's ToolOutput definition (schema/src/output.ts).
export type { ToolOutput, OutputBlock } from '../contract/index.js';
import type { OutputBlock } from '../contract/index.js';

/** Describes a base64 image by size and hash; the caller records a TruncationNote for the data. */
export function imageBlock(mediaType: string, base64: string): { block: OutputBlock; bytes: number } {
  const data = Buffer.from(base64, 'base64');
  // The one-shot `hash`: a Hash object per image (createHash/update/digest) cost three times as much.
  return { block: { type: 'image', mediaType, bytes: data.length, sha256: hash('sha256', data, 'hex') }, bytes: base64.length };
}

export function imageNote(path: string, base64Length: number): TruncationNote {
  return { path, originalBytes: base64Length, reason: 'base64 image data is not kept in parts; media type, size and sha256 are' };
}
