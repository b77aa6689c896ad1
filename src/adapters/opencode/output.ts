// A completed OpenCode call → the shared output shape {text, content?, structured?} plus the part
// metadata it implies (exit code, OpenCode's own truncation, image data moved out), and the
// output a running call streams.
import type { ToolMetadata, TruncationNote } from '../../contract/index.js';
import { imageBlock, imageNote, type OutputBlock, type ToolOutput } from '../../present/output.js';
import { num, obj, text, type Obj, type ToolPartView } from './part-view.js';

/** New streamed output since `prev`. OpenCode resends the whole (bounded, tail) preview each time. */
export function outputDelta(prev: string, next: string): string {
  if (next.startsWith(prev)) return next.slice(prev.length);
  // A sliding tail: next = prev.slice(d) + added. The smallest such d keeps the most overlap.
  const head = next.slice(0, 64);
  if (head) {
    for (let d = prev.indexOf(head, 1); d >= 0; d = prev.indexOf(head, d + 1)) {
      if (next.startsWith(prev.slice(d))) return next.slice(prev.length - d);
    }
  }
  return next;
}

export interface BuiltOutput {
  output: ToolOutput;
  metadata: ToolMetadata;
}

const DATA_URL = /^data:([^;,]+)?(;base64)?,(.*)$/s;

function attachmentBlock(att: unknown, index: number, notes: TruncationNote[]): OutputBlock | undefined {
  const a = obj(att);
  if (!a) return undefined;
  const url = text(a.url) ?? '';
  const mime = text(a.mime) ?? 'application/octet-stream';
  const data = DATA_URL.exec(url);
  const path = `/output/content/${index}`;
  if (data && data[2] && mime.startsWith('image/')) {
    const { block, bytes } = imageBlock(mime, data[3]!);
    notes.push(imageNote(path, bytes));
    return block;
  }
  const name = text(a.filename) ?? text(a.id) ?? 'attachment';
  if (data) {
    notes.push({ path, originalBytes: url.length, reason: 'inline attachment data is not kept in parts; its name and media type are' });
    return { type: 'resource', uri: name, mimeType: mime };
  }
  return { type: 'resource', uri: url || name, mimeType: mime };
}

/** OpenCode's `state.metadata` as the structured result, without the copy of the output bash keeps. */
function structuredOf(view: ToolPartView): unknown {
  if (view.structured !== undefined) return view.structured;
  const meta: Obj = { ...view.metadata };
  const preview = text(meta.output);
  if (preview !== undefined && view.output !== undefined && view.output.endsWith(preview)) delete meta.output;
  return Object.keys(meta).length ? meta : undefined;
}

/**
 * Part metadata every terminal OpenCode state may imply.
 * @contract ToolMetadata
 */
export function terminalMetadata(view: ToolPartView): ToolMetadata {
  const m: ToolMetadata = {};
  if ('exit' in view.metadata && (view.metadata.exit === null || num(view.metadata.exit) !== undefined)) m.exitCode = view.metadata.exit as number | null;
  const outputPath = text(view.metadata.outputPath);
  if (outputPath) m.outputPath = outputPath;
  if (view.metadata.truncated === true) m.outputTruncated = true;
  if (view.compacted !== undefined) m.compactedAt = view.compacted;
  return m;
}

export function completedOutput(view: ToolPartView): BuiltOutput {
  const output: ToolOutput = {};
  if (view.output !== undefined) output.text = view.output;
  const notes: TruncationNote[] = [];
  const content: OutputBlock[] = [];
  for (const a of view.attachments ?? []) {
    const block = attachmentBlock(a, content.length, notes);
    if (block) content.push(block);
  }
  if (content.length) output.content = content;
  const structured = structuredOf(view);
  if (structured !== undefined) output.structured = structured;
  const metadata = terminalMetadata(view);
  if (notes.length) metadata.truncated = notes;
  return { output, metadata };
}
