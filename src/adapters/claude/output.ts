// A successful tool_result → the cross-provider ToolOutput {text, content, structured}
// (src/present/output.ts). Images keep media type, size and hash; their base64 data,
// wherever it sits (content blocks or the structured result), is replaced and noted.
import type { TruncationNote } from '../../contract/index.js';
import { omittedMarker } from '../../events/budget.js';
import { imageBlock, imageNote, type OutputBlock, type ToolOutput } from '../../present/output.js';
import { stripReminders } from './errors.js';
import { obj, type Obj } from '../../fields.js';

export interface Built {
  output: ToolOutput;
  notes: TruncationNote[];
}

/** Text of a tool_result `content` (string or blocks), ignoring non-text blocks. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let out: string | undefined;
  for (const b of content) {
    const text = obj(b)?.text;
    if (typeof text !== 'string' || text.length === 0) continue;
    out = out === undefined ? text : `${out}\n${text}`;
  }
  return out ?? '';
}

const BASE64 = /^[A-Za-z0-9+/=\r\n]+$/;
const looksBase64 = (s: string) => s.length >= 16 && BASE64.test(s.slice(0, 256));

/** An image (or other binary) block: `{type, source: {type: 'base64', media_type, data}}` or MCP's `{type, data, mimeType}`. */
function binaryOf(block: Obj): { mediaType: string; data: string } | undefined {
  const source = obj(block.source);
  if (source && source.type === 'base64' && typeof source.data === 'string') {
    return { mediaType: typeof source.media_type === 'string' ? source.media_type : 'application/octet-stream', data: source.data };
  }
  if (typeof block.data === 'string' && typeof block.mimeType === 'string') return { mediaType: block.mimeType, data: block.data };
  return undefined;
}

function contentBlocks(content: unknown[], notes: TruncationNote[]): { texts: string[]; blocks: OutputBlock[] } {
  const texts: string[] = [];
  const blocks: OutputBlock[] = [];
  for (const raw of content) {
    const b = obj(raw);
    if (!b) continue;
    if (typeof b.text === 'string' && (b.type === 'text' || b.type === undefined)) {
      texts.push(b.text);
      continue;
    }
    const bin = binaryOf(b);
    if (bin) {
      const { block } = imageBlock(bin.mediaType, bin.data);
      if (!bin.mediaType.startsWith('image/') && block.type === 'image') {
        blocks.push({ type: 'resource', uri: `sha256:${block.sha256 ?? ''}`, mimeType: bin.mediaType });
      } else {
        blocks.push(block);
      }
      notes.push(imageNote(`/output/content/${blocks.length - 1}`, bin.data.length));
      continue;
    }
    if (b.type === 'resource' && obj(b.resource)) {
      const r = obj(b.resource)!;
      blocks.push({ type: 'resource', uri: String(r.uri ?? ''), ...(typeof r.mimeType === 'string' ? { mimeType: r.mimeType } : {}), ...(typeof r.text === 'string' ? { text: r.text } : {}) });
      continue;
    }
    // A block type this adapter does not model (tool_reference, search_result…): kept readable.
    if (typeof b.text === 'string') texts.push(b.text);
    else blocks.push({ type: 'text', text: JSON.stringify(b) });
  }
  return { texts, blocks };
}

/**
 * A copy of `value` with base64 payloads replaced by the budget module's omitted marker, and a
 * note per replacement. Only strings under image-like keys are touched (`data`, `base64`).
 */
export function scrubBinary(value: unknown, path: string, notes: TruncationNote[]): unknown {
  return scrub(value, [path], notes);
}

const pointer = (segments: (string | number)[]) => segments.map((s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

// The JSON pointer is only built for a value that is replaced; walking keeps segments on a stack.
function scrub(value: unknown, at: (string | number)[], notes: TruncationNote[]): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (!v || typeof v !== 'object') continue;
      at.push(i);
      const next = scrub(v, at, notes);
      at.pop();
      if (next !== v) (copy ??= value.slice())[i] = next;
    }
    return copy ?? value;
  }
  if (!value || typeof value !== 'object') return value;
  const o = value as Obj;
  let copy: Obj | undefined;
  for (const k in o) {
    const v = o[k];
    let next: unknown = v;
    if (typeof v === 'string') {
      if ((k === 'data' || k === 'base64') && looksBase64(v)) {
        notes.push(imageNote(`${at[0] as string}/${pointer([...at.slice(1), k])}`, v.length));
        next = omittedMarker(v, v.length);
      }
    } else if (v && typeof v === 'object') {
      at.push(k);
      next = scrub(v, at, notes);
      at.pop();
    }
    if (next !== v) (copy ??= { ...o })[k] = next;
  }
  return copy ?? o;
}

const SHARED_TEXT_FIELDS = ['stdout', 'content', 'result'] as const;

export interface OutputSource {
  /** tool_result.content */
  content: unknown;
  /** tool_use_result / toolUseResult */
  structured?: unknown;
  /** Prefer the structured result's text content (subagent reports without the hand-back frame). */
  textFromStructuredContent?: boolean;
}

export function buildOutput(src: OutputSource): Built {
  const notes: TruncationNote[] = [];
  const output: ToolOutput = {};
  let text: string;
  let blocks: OutputBlock[] = [];
  if (Array.isArray(src.content)) {
    const found = contentBlocks(src.content, notes);
    text = found.texts.join('\n');
    blocks = found.blocks;
  } else {
    text = typeof src.content === 'string' ? src.content : '';
  }
  if (src.textFromStructuredContent) {
    const report = obj(src.structured)?.content;
    const reportText = Array.isArray(report) ? resultText(report) : '';
    if (reportText) text = reportText;
  }
  text = stripReminders(text);
  // A command that printed nothing still has a (blank) text result; a content-less result has none.
  if (text || typeof src.content === 'string') output.text = text;
  if (blocks.length) output.content = blocks;
  if (src.structured !== undefined && src.structured !== null) output.structured = scrubBinary(src.structured, '/output/structured', notes);
  // The text often repeats a structured field (Bash stdout, Grep content, WebFetch result): share
  // one string instead of holding the same (possibly large) text twice.
  const s = obj(output.structured);
  if (s && output.text && output.text.length > 256) {
    for (const k of SHARED_TEXT_FIELDS) if (s[k] === output.text) output.text = s[k] as string;
  }
  return { output, notes };
}
