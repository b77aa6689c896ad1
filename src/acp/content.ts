// What a part shows in ACP `content` and `locations`. Content is replaced whole by every update,
// so diffs are always resent together with the text that follows them.
import { posix, win32 } from 'node:path';
import type { AcpToolCallContent, AcpToolCallLocation, NormalizedToolPart } from '../contract/index.js';
import { obj, type Obj, text } from '../fields.js';

const FILE_KINDS = new Set(['file_read', 'file_write', 'file_edit']);
const PATH_KEYS = ['file_path', 'filePath', 'path', 'notebook_path', 'target_file', 'file'];
export const textItem = (text: string): AcpToolCallContent => ({ type: 'content', content: { type: 'text', text } });

/** The text a person reads for an output, whatever its shape. */
export function outputText(output: unknown): string | undefined {
  if (output === undefined || output === null) return undefined;
  if (typeof output === 'string') return output;
  const o = obj(output);
  if (o && typeof o.text === 'string') return o.text;
  if (o && Array.isArray(o.content)) {
    const texts = (o.content as unknown[]).map((b) => text(obj(b)?.text)).filter((t): t is string => t !== undefined);
    if (texts.length) return texts.join('\n');
  }
  // Compact, as the compressor measures it: a structured output that fits its budget as JSON must
  // not be shown larger than that (pretty-printing made a 348-byte image result 501 bytes).
  return JSON.stringify(output);
}

/**
 * An absolute path for ACP, or undefined. Recordings come from other machines (Windows ones too),
 * so nothing here may fall back to this process's cwd: relative paths resolve only against an
 * absolute session cwd, in that cwd's own path flavour.
 */
function absolute(path: string, cwd?: string): string | undefined {
  if (posix.isAbsolute(path) || win32.isAbsolute(path)) return path;
  // `~` is a shell/ToolPath notation, not a directory name: anchoring it on the cwd would invent a path.
  if (path.startsWith('~') || !cwd) return undefined;
  if (posix.isAbsolute(cwd)) return posix.resolve(cwd, path);
  if (/^[A-Za-z]:[\\/]|^\\\\/.test(cwd)) return win32.resolve(cwd, path);
  return undefined;
}

function paths(part: NormalizedToolPart): string[] {
  const input = obj(part.input);
  if (!input) return [];
  const found: string[] = [];
  for (const k of PATH_KEYS) if (text(input[k])) { found.push(text(input[k])!); break; }
  if (Array.isArray(input.changes)) for (const c of input.changes) if (text(obj(c)?.path)) found.push(text(obj(c)!.path)!);
  return found;
}

export function locationsOf(part: NormalizedToolPart, cwd?: string): AcpToolCallLocation[] | undefined {
  if (!FILE_KINDS.has(part.kind)) return undefined;
  const input = obj(part.input) ?? {};
  const lineRaw = input.offset ?? input.line ?? input.startLine;
  const line = typeof lineRaw === 'number' && Number.isInteger(lineRaw) ? Math.max(1, lineRaw) : undefined;
  const locs = paths(part)
    .map((p) => absolute(p, cwd))
    .filter((p): p is string => !!p)
    .map((path) => (line !== undefined ? { path, line } : { path }));
  return locs.length ? locs : undefined;
}

function diffsOf(part: NormalizedToolPart, cwd?: string): AcpToolCallContent[] {
  if (part.kind !== 'file_edit' && part.kind !== 'file_write') return [];
  const input = obj(part.input) ?? {};
  const rawPath = PATH_KEYS.map((k) => text(input[k])).find(Boolean);
  const path = rawPath && absolute(rawPath, cwd);
  if (!path) return [];
  const oldText = text(input.old_string) ?? text(input.oldString) ?? text(input.old);
  const newText = text(input.new_string) ?? text(input.newString) ?? text(input.new);
  if (oldText !== undefined && newText !== undefined) return [{ type: 'diff', path, oldText, newText }];
  const content = text(input.content);
  const structured = obj(obj(part.state === 'complete' ? (part as { output?: unknown }).output : undefined)?.structured);
  // Only a known creation gets oldText: null; an overwrite without its old text gets no diff at all.
  if (content !== undefined && structured?.type === 'create') return [{ type: 'diff', path, oldText: null, newText: content }];
  return [];
}

export function contentOf(part: NormalizedToolPart, streamedTail: string | undefined, cwd?: string): AcpToolCallContent[] | undefined {
  const items = diffsOf(part, cwd);
  if (part.state === 'complete') {
    const text = outputText((part as { output?: unknown }).output);
    if (text) items.push(textItem(text));
  } else if (part.state === 'error') {
    items.push(textItem(part.error.message));
  } else if (streamedTail) {
    items.push(textItem(streamedTail));
  }
  return items.length ? items : undefined;
}
