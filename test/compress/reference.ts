// Independent re-implementations used to check the compressor: nothing here imports src/compress.
import { createHash } from 'node:crypto';
import type { CompressionBudget } from '../../src/contract/index.js';

export const sha256 = (text: string | Buffer) => createHash('sha256').update(typeof text === 'string' ? Buffer.from(text, 'utf8') : text).digest('hex');
export const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** Lines as the compressor documents them: split on \n, a trailing \n does not start a new line. */
export function lines(text: string): number {
  if (text === '') return 0;
  const parts = text.split('\n');
  return text.endsWith('\n') ? parts.length - 1 : parts.length;
}

/** [start, end) of every escape sequence, by a regex written from ECMA-48, not by the code under test. */
export function escapeSpans(text: string): Array<[number, number]> {
  const re = /\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][^\x07\x1b\n]*(?:\x07|\x1b\\)|[ -/]+[0-~]|[0-OQ-WYZ\\`-~])/g;
  return [...text.matchAll(re)].map((m) => [m.index!, m.index! + m[0].length]);
}

export const insideEscape = (spans: Array<[number, number]>, pos: number) => spans.some(([s, e]) => s < pos && pos < e);

export const splitsPair = (text: string, pos: number) => {
  const before = text.charCodeAt(pos - 1);
  const after = text.charCodeAt(pos);
  return pos > 0 && pos < text.length && before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
};

/** Lines of `text` with at least one character in [0, headEnd) or [tailStart, length). */
export function touchedLines(text: string, headEnd: number, tailStart: number): number {
  let n = 0;
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl + 1;
    if (start < headEnd || end > tailStart) n++;
    start = end;
  }
  return n;
}

export function fitsBudget(text: string, budget: CompressionBudget): boolean {
  const b = bytes(text);
  return (budget.maxBytes === undefined || b <= budget.maxBytes)
    && (budget.maxLines === undefined || lines(text) <= budget.maxLines)
    && (budget.maxTokens === undefined || Math.ceil(b / 4) <= budget.maxTokens);
}
