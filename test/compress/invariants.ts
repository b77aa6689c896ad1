// The invariants every compression must keep, shared by the property and big-input suites.
import { expect } from 'vitest';
import type { CompressionBudget, OutputCompressionSpec } from '../../src/contract/index.js';
import type { TextCompression } from '../../src/compress/index.js';
import { bytes, escapeSpans, fitsBudget, insideEscape, lines, sha256, splitsPair, touchedLines } from './reference.js';

const fitsFacts = (f: OriginalFacts, b: CompressionBudget) =>
  (b.maxBytes === undefined || f.bytes <= b.maxBytes) && (b.maxLines === undefined || f.lines <= b.maxLines) && (b.maxTokens === undefined || Math.ceil(f.bytes / 4) <= b.maxTokens);

/** What the checks need to know about the original; computed once for big inputs. */
export interface OriginalFacts {
  sha256: string;
  bytes: number;
  lines: number;
  spans: Array<[number, number]>;
}

export const factsOf = (original: string): OriginalFacts => ({ sha256: sha256(original), bytes: bytes(original), lines: lines(original), spans: escapeSpans(original) });

/**
 * Every invariant of a text compression, checked against the independent references: budget
 * never exceeded, head and tail exact slices, stats that add up, no split character or escape.
 */
export function checkInvariants(original: string, s: OutputCompressionSpec, r: TextCompression, facts: OriginalFacts = factsOf(original)): void {
  const st = r.stats;
  // Stats describe the original exactly.
  expect(r.sha256).toBe(facts.sha256);
  expect(st.originalBytes).toBe(facts.bytes);
  expect(st.originalLines).toBe(facts.lines);
  expect(st.originalTokens).toBe(Math.ceil(facts.bytes / 4));
  // ...and the text that came out.
  expect(r.text).toBe(r.head + r.marker + r.tail);
  expect(st.keptBytes).toBe(bytes(r.text));
  expect(st.keptLines).toBe(lines(r.text));
  expect(st.keptTokens).toBe(Math.ceil(bytes(r.text) / 4));
  // Compression happens exactly when the original is over budget; the result never is.
  expect(r.compressed).toBe(!fitsFacts(facts, s.budget));
  expect(fitsBudget(r.text, s.budget)).toBe(true);
  if (!r.compressed) {
    expect(r.text === original).toBe(true);
    expect(st.omittedBytes).toBe(0);
    expect(st.omittedLines).toBe(0);
    return;
  }
  // Stats add up: every kept byte is either the original's or the compressor's own.
  expect(st.omittedBytes).toBe(st.originalBytes - (st.keptBytes - r.addedBytes));
  expect(st.omittedBytes).toBeGreaterThanOrEqual(0);
  expect(st.omittedBytes).toBeLessThanOrEqual(st.originalBytes);
  expect(st.omittedLines).toBeGreaterThanOrEqual(0);
  expect(st.omittedLines).toBeLessThanOrEqual(st.originalLines);
  if (!r.exactSlices) return;
  // Head and tail are exact, disjoint slices of the original.
  const headEnd = r.head.length;
  const tailStart = original.length - r.tail.length;
  expect(original.slice(0, headEnd) === r.head).toBe(true);
  expect(original.slice(tailStart) === r.tail).toBe(true);
  expect(headEnd).toBeLessThanOrEqual(tailStart);
  expect(r.addedBytes).toBe(bytes(r.marker));
  expect(st.omittedBytes).toBe(st.originalBytes - bytes(r.head) - bytes(r.tail));
  expect(st.omittedLines).toBe(st.originalLines - touchedLines(original, headEnd, tailStart));
  expect(st.strategy.split('+').at(-1)).toMatch(/^(head_tail|head|tail)$/);
  // Never inside a surrogate pair or an escape sequence.
  const spans = facts.spans;
  for (const pos of [headEnd, tailStart]) {
    expect(splitsPair(original, pos)).toBe(false);
    expect(insideEscape(spans, pos)).toBe(false);
  }
}

