// Result content to the shared output shape `{text, content, structured}`: MCP content blocks,
// dynamic-tool content items and Responses API output items. Base64 images are never kept, only
// their type, size and hash (plus a truncation note).
import type { TruncationNote } from '../../contract/index.js';
import { imageBlock, imageNote, type OutputBlock, type ToolOutput } from '../../present/output.js';
import { arr, get, nonEmpty, obj, text } from './fields.js';

export interface Converted {
  output?: ToolOutput;
  truncated: TruncationNote[];
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/** One content block (MCP `ContentBlock`, dynamic `inputText`/`inputImage`, Responses `input_text`…). */
function block(raw: unknown, at: string, notes: TruncationNote[]): { text?: string; block?: OutputBlock } {
  const b = obj(raw);
  if (!b) return typeof raw === 'string' ? { text: raw } : {};
  const type = text(b.type) ?? '';
  if (/text$/i.test(type) || (type === '' && typeof b.text === 'string')) return { text: text(b.text) ?? '' };
  if (/image|audio/i.test(type)) {
    const data = text(b.data);
    const mediaType = text(get(b, 'mimeType')) ?? (/audio/i.test(type) ? 'audio/*' : 'image/*');
    if (data !== undefined) {
      const img = imageBlock(mediaType, data);
      notes.push(imageNote(at, img.bytes));
      return { block: img.block };
    }
    const url = text(get(b, 'imageUrl')) ?? text(get(b, 'audioUrl')) ?? text(b.url);
    const m = url ? DATA_URL.exec(url) : null;
    if (m) {
      const img = imageBlock(m[1]!, m[2]!);
      notes.push(imageNote(at, url!.length));
      return { block: img.block };
    }
    if (url) return { block: { type: 'resource', uri: url, mimeType: mediaType } };
    return {};
  }
  if (type === 'resource') {
    const r = obj(b.resource);
    const uri = r && nonEmpty(r.uri);
    if (!r || !uri) return {};
    const out: OutputBlock = { type: 'resource', uri };
    const mime = text(get(r, 'mimeType'));
    if (mime) out.mimeType = mime;
    if (typeof r.text === 'string') out.text = r.text;
    if (typeof r.blob === 'string') notes.push({ path: at, originalBytes: r.blob.length, reason: 'base64 resource data is not kept in parts' });
    return { block: out };
  }
  if (type === 'resource_link' || type === 'resourceLink') {
    const uri = nonEmpty(b.uri);
    if (!uri) return {};
    const out: OutputBlock = { type: 'resource', uri };
    const mime = text(get(b, 'mimeType'));
    if (mime) out.mimeType = mime;
    return { block: out };
  }
  return { text: JSON.stringify(b) };
}

/** A list of blocks to text (joined by newlines) plus the non-text blocks. */
export function blocksToOutput(blocks: readonly unknown[], at: string, structured?: unknown): Converted {
  const notes: TruncationNote[] = [];
  const texts: string[] = [];
  const content: OutputBlock[] = [];
  blocks.forEach((raw) => {
    // Notes point at the block that replaced the data: its index in `content`.
    const r = block(raw, `${at}/${content.length}`, notes);
    if (r.text !== undefined) texts.push(r.text);
    if (r.block) content.push(r.block);
  });
  const output: ToolOutput = {};
  if (texts.length) output.text = texts.join('\n');
  if (content.length) output.content = content;
  if (structured !== undefined && structured !== null) output.structured = structured;
  return { output: Object.keys(output).length ? output : undefined, truncated: notes };
}

export interface McpResult extends Converted {
  /** The server flagged the result as an error (`isError`). */
  isError: boolean;
}

/** An MCP `CallToolResult` (`content`, `structuredContent`/`structured_content`, `isError`). */
export function mcpResult(raw: unknown): McpResult {
  const r = obj(raw);
  if (!r) return typeof raw === 'string' ? { output: { text: raw }, truncated: [], isError: false } : { truncated: [], isError: false };
  const blocks = arr(r.content) ?? [];
  const converted = blocksToOutput(blocks, '/output/content', get(r, 'structuredContent'));
  return { ...converted, isError: get(r, 'isError') === true };
}

/** The text of a result, for an error message. */
export function outputTextOf(c: Converted): string | undefined {
  return c.output?.text;
}
