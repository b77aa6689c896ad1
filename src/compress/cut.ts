// Choosing the cut: how much head and tail fit beside the marker, on line boundaries where that
// wastes little, never inside a character or an escape sequence.
import { NL, boundaryBack, boundaryForward, bytesIn, countNewlines, linesFrom } from './bytes.js';
import { SGR_RESET, escapeSafeBack, escapeSafeForward, leavesStyleOn } from './ansi.js';
import { SHORT_MARKER, renderMarker, type MarkerValues } from './marker.js';
import type { Window } from './retainer.js';

/**
 * A byte-limited part is cut at a line boundary when that gives up at most this share of the
 * part's budget; otherwise it is cut mid-line (one long line must still show its start and end).
 */
export const LINE_SLACK = 0.25;

export interface CutRequest {
  /** Largest UTF-8 length of the result, marker included. */
  bytes: number;
  /** Largest line count of the result, marker included. */
  lines?: number;
  /** Share of the room that goes to the head: 1 for `head`, 0 for `tail`. */
  headRatio: number;
  marker: string;
  /** Values that bound every placeholder from above (the original's counts), to size the marker. */
  upper: MarkerValues;
  /** The text may contain SGR sequences: reserve room for a reset before the marker. */
  ansiReset: boolean;
}

export interface CutShape {
  head: Buffer;
  tail: Buffer;
  /** Compressor-written bytes inside head and tail (e.g. a ×N count). */
  addedInParts: number;
  /** Lines of the cut stream with at least one byte kept. */
  keptLines: number;
}

export interface Cut extends CutShape {
  /** Everything between head and tail: separators, reset and the rendered marker. */
  marker: string;
}

function chooseHead(prefix: Buffer, hMax: number, hLines: number | undefined): number {
  const h = Math.min(hMax, prefix.length);
  if (h <= 0 || hLines === 0) return 0;
  if (hLines !== undefined) {
    let n = 0;
    for (let i = prefix.indexOf(NL); i !== -1 && i < h; i = prefix.indexOf(NL, i + 1)) {
      if (++n === hLines) return i + 1;
    }
  }
  const nl = prefix.lastIndexOf(NL, h - 1);
  if (nl !== -1 && h - (nl + 1) <= LINE_SLACK * hMax) return nl + 1;
  return escapeSafeBack(prefix, boundaryBack(prefix, h));
}

/** Absolute start of the tail. */
function chooseTail(w: Window, tMax: number, tLines: number | undefined): number {
  const buf = w.tail;
  const end = buf.length;
  if (tMax <= 0 || tLines === 0) return w.total;
  let t = Math.max(0, end - tMax);
  if (tLines !== undefined) {
    let n = 0;
    let i = w.endsWithNewline ? end - 2 : end - 1;
    while (i >= 0) {
      const j = buf.lastIndexOf(NL, i);
      if (j === -1 || j + 1 < t) break;
      if (++n === tLines) return w.tailBase + j + 1;
      i = j - 1;
    }
  }
  if (t === 0 && w.tailBase === 0) return 0;
  const nl = buf.indexOf(NL, Math.max(0, t - 1));
  if (nl !== -1 && nl + 1 < end && nl + 1 - t <= LINE_SLACK * tMax) return w.tailBase + nl + 1;
  t = escapeSafeForward(buf, boundaryForward(buf, t));
  return w.tailBase + t;
}

function shapeOf(w: Window, h: number, t: number): CutShape {
  const head = w.prefix.subarray(0, h);
  const tail = w.tail.subarray(t - w.tailBase);
  const addedInParts = bytesIn(w.prefixAdded, 0, h) + bytesIn(w.tailAdded, t - w.tailBase, w.tail.length);
  // A line is kept when any of its bytes is; head and tail can share one (a long line cut in two).
  const headLast = h > 0 ? countNewlines(head) - (head[h - 1] === NL ? 1 : 0) : -1;
  const tailFirst = tail.length > 0 ? w.newlines - countNewlines(tail) : -1;
  const lastLine = w.newlines - (w.endsWithNewline ? 1 : 0);
  const headLines = headLast + 1;
  const tailLines = tail.length > 0 ? lastLine - tailFirst + 1 : 0;
  const shared = h > 0 && tail.length > 0 && headLast === tailFirst ? 1 : 0;
  return { head, tail, addedInParts, keptLines: headLines + tailLines - shared };
}

function linesOfParts(parts: readonly (Buffer | string)[]): number {
  let newlines = 0;
  let bytes = 0;
  let last = -1;
  for (const p of parts) {
    const b = typeof p === 'string' ? Buffer.from(p, 'utf8') : p;
    if (!b.length) continue;
    newlines += countNewlines(b);
    bytes += b.length;
    last = b[b.length - 1]!;
  }
  return linesFrom(newlines, bytes, last === NL);
}

function withTemplate(w: Window, req: CutRequest, template: string, valuesFor: (s: CutShape) => MarkerValues): Cut | undefined {
  const upper = template ? renderMarker(template, req.upper) : '';
  // Room for the newlines that put the marker on its own line: one per side that can be kept.
  const separators = (req.headRatio > 0 ? 1 : 0) + (req.headRatio < 1 ? 1 : 0);
  const markerRoom = template ? Buffer.byteLength((req.ansiReset ? SGR_RESET : '') + upper, 'utf8') + separators : 0;
  const markerLines = template ? countNewlines(Buffer.from(upper, 'utf8')) + 1 : 0;
  if (markerRoom > req.bytes || (req.lines !== undefined && markerLines > req.lines)) return undefined;
  const room = Math.max(0, Math.min(req.bytes - markerRoom, w.total - 1));
  const hMax = Math.floor(room * req.headRatio);
  const tMax = room - hMax;
  const lineRoom = req.lines !== undefined ? req.lines - markerLines : undefined;
  let hLines = lineRoom !== undefined ? Math.floor(lineRoom * req.headRatio) : undefined;
  let tLines = lineRoom !== undefined ? lineRoom - hLines! : undefined;
  for (let attempt = 0; attempt < 8; attempt++) {
    const h = chooseHead(w.prefix, hMax, hLines);
    const t = Math.max(h, chooseTail(w, tMax, tLines));
    const shape = shapeOf(w, h, t);
    let marker = '';
    if (template) {
      const reset = req.ansiReset && leavesStyleOn(shape.head) ? SGR_RESET : '';
      const before = h > 0 && shape.head[h - 1] !== NL ? '\n' : '';
      const after = shape.tail.length ? '\n' : '';
      marker = before + reset + renderMarker(template, valuesFor(shape)) + after;
    }
    if (req.lines === undefined || linesOfParts([shape.head, marker, shape.tail]) <= req.lines) return { ...shape, marker };
    // Only a marker template ending in a newline can get here: give up a line and retry.
    if (hLines !== undefined && tLines !== undefined && hLines + tLines > 0) {
      if (hLines >= tLines) hLines--;
      else tLines--;
    } else return undefined;
  }
  return undefined;
}

/** The best cut of `w` within `req`: the spec's marker if it fits, else a short one, else none. */
export function planCut(w: Window, req: CutRequest, valuesFor: (s: CutShape) => MarkerValues): Cut {
  for (const template of [req.marker, SHORT_MARKER, '']) {
    const cut = withTemplate(w, req, template, valuesFor);
    if (cut) return cut;
  }
  // Unreachable: an empty marker with zero lines and bytes always fits; kept for the type.
  return { ...shapeOf(w, 0, w.total), marker: '' };
}
