// What a part shows in ACP `content` and `locations`. Both come from the part's typed substance
// (`metadata.files`, `metadata.search`), never from the provider's input: the adapters read their
// provider's keys once, and every output shows the same diff and paths for every provider.
// Content is replaced whole by every update, so diffs are always resent with the text after them.
import type { AcpToolCallContent, AcpToolCallLocation, FileChange, NormalizedToolPart } from '../contract/index.js';
import { obj, text } from '../fields.js';
import { absolutePath, hunkTexts } from '../substance/index.js';

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

/** A value the metadata budget replaced (src/events/budget.ts): a size, not the file's text. */
export const isBudgetMarker = (v: unknown): boolean => typeof v === 'string' && v.startsWith('[omitted by toolnorm: ');

const realText = (v: unknown): v is string => typeof v === 'string' && !isBudgetMarker(v);

/** The part's file changes, as the contract types them (an adapter may have left them out). */
export const filesOf = (part: NormalizedToolPart): readonly FileChange[] => (Array.isArray(part.metadata?.files) ? part.metadata.files : []);

/**
 * An absolute path for ACP, or undefined. `metadata.files` paths are absolute whenever the
 * adapter knew the cwd; for the rest only an absolute cwd (the session's, or the encoder's
 * option) may anchor them, never this process's cwd (recordings come from other machines).
 */
const absolute = (path: string, cwd?: string): string | undefined => absolutePath(path, cwd);

/** A URL (a web search's `path`) is no file location, and must not be anchored on a cwd. */
const isUrl = (p: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(p);

/**
 * Every file the call touched, for follow-along: each FileChange's path (and where a rename came
 * from), else the paths a search matched, else the directory it searched. The substance holds
 * no line numbers (a FileChange and a SearchInfo have none), so locations carry paths only.
 */
export function locationsOf(part: NormalizedToolPart, cwd?: string): AcpToolCallLocation[] | undefined {
  const found: string[] = [];
  for (const f of filesOf(part)) {
    found.push(f.path);
    if (f.from !== undefined) found.push(f.from);
  }
  const read = part.metadata?.read;
  if (!found.length && read) {
    const path = absolute(read.path, cwd);
    return path ? [read.line !== undefined ? { path, line: read.line } : { path }] : undefined;
  }
  const search = part.metadata?.search;
  if (!found.length && search) {
    if (search.paths?.length) found.push(...search.paths);
    else if (search.path !== undefined) found.push(search.path);
  }
  const seen = new Set<string>();
  const locs: AcpToolCallLocation[] = [];
  for (const p of found) {
    const path = isUrl(p) ? undefined : absolute(p, cwd);
    if (!path || seen.has(path)) continue;
    seen.add(path);
    locs.push({ path });
  }
  return locs.length ? locs : undefined;
}

/**
 * One ACP diff for a file change: its own old and new text when both are real text (null old
 * text: the file was created), else the two texts its unified diff's hunks show. A deleted file
 * (newText null) has no text after it, which ACP's diff cannot say: it gets no diff, only its
 * location. Nothing at all when neither is known (an overwrite recorded without its old text).
 */
export function diffOfChange(f: FileChange, cwd?: string): AcpToolCallContent | undefined {
  const path = absolute(f.path, cwd);
  if (!path || f.operation === 'delete' || f.operation === 'unchanged') return undefined;
  const oldOk = realText(f.oldText) || (f.oldText === null && f.operation === 'create');
  if (oldOk && realText(f.newText)) return { type: 'diff', path, oldText: f.oldText ?? null, newText: f.newText };
  if (realText(f.diff)) {
    const h = hunkTexts(f.diff);
    // A diff of a creation shows only added lines: the old side is no file, not an empty one.
    if (h) return { type: 'diff', path, oldText: f.operation === 'create' && h.oldText === '' ? null : h.oldText, newText: h.newText };
  }
  return undefined;
}

function diffsOf(part: NormalizedToolPart, cwd?: string): AcpToolCallContent[] {
  const out: AcpToolCallContent[] = [];
  for (const f of filesOf(part)) {
    const d = diffOfChange(f, cwd);
    if (d) out.push(d);
  }
  return out;
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
