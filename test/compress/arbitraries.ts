// fast-check arbitraries for tool output: emoji, CJK, combining marks, ANSI sequences (whole,
// broken and lone), CRLF, lone surrogates, repeated lines, long lines and the empty text.
import fc from 'fast-check';
import type { CompressionStep, OutputCompressionSpec } from '../../src/contract/index.js';

const piece = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'word ', 'x', '0123456789', '    ', 'ok', '—'), weight: 6 },
  { arbitrary: fc.string({ maxLength: 12 }), weight: 3 },
  { arbitrary: fc.constantFrom('日本語', '中文字符', '한국어', 'ｶﾀｶﾅ', '漢'), weight: 3 },
  { arbitrary: fc.constantFrom('🙂', '👨‍👩‍👧‍👦', '🇯🇵', '𝒳', '🏳️‍🌈', 'e\u0301', '\ufe0f'), weight: 3 },
  { arbitrary: fc.constantFrom('\x1b[31m', '\x1b[0m', '\x1b[1;32m', '\x1b[2K', '\x1b]8;;https://x.test/\x07', '\x1b]0;t\x1b\\', '\x1b', '\x1b[', '\x1b(B'), weight: 3 },
  { arbitrary: fc.constantFrom('\n', '\r\n', '\r', '\n\n'), weight: 5 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }), weight: 2 },
  { arbitrary: fc.constantFrom('\ud800', '\udfff'), weight: 1 },
);

const inLine = piece.map((p) => p.replace(/[\r\n]/g, ''));

/** Random text, sometimes with runs of one repeated line (collapse_repeats) or one long line (mid-line cuts). */
export const text = fc.oneof(
  { arbitrary: fc.constant(''), weight: 1 },
  { arbitrary: fc.tuple(fc.array(inLine, { minLength: 20, maxLength: 300 }), fc.constantFrom('', '\n', '\r\n')).map(([p, end]) => p.join('') + end), weight: 4 },
  { arbitrary: fc.array(piece, { maxLength: 200 }).map((p) => p.join('')), weight: 12 },
  {
    arbitrary: fc.tuple(fc.array(piece, { maxLength: 40 }), fc.array(piece, { maxLength: 6 }), fc.integer({ min: 2, max: 40 }), fc.boolean())
      .map(([a, line, n, crlf]) => a.join('') + `${line.join('').replace(/[\r\n]/g, '')}${crlf ? '\r\n' : '\n'}`.repeat(n) + a.reverse().join('')),
    weight: 4,
  },
);

export const budget = fc
  .record({
    maxBytes: fc.option(fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 40, max: 500 })), { nil: undefined }),
    maxLines: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
    maxTokens: fc.option(fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 10, max: 120 })), { nil: undefined }),
  })
  .map((b) => Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)))
  .filter((b) => Object.keys(b).length > 0);

const cut = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }).map((headRatio): CompressionStep => ({ type: 'head_tail', headRatio })),
  fc.constant<CompressionStep>({ type: 'head_tail' }),
  fc.constant<CompressionStep>({ type: 'head' }),
  fc.constant<CompressionStep>({ type: 'tail' }),
);

const transforms = fc.subarray<CompressionStep>([{ type: 'ansi_strip' }, { type: 'collapse_repeats', minRun: 2 }]).chain((t) => fc.shuffledSubarray(t, { minLength: t.length, maxLength: t.length }));

const marker = fc.constantFrom(undefined, '…{omittedTokens} tokens truncated…', '[{omittedLines} lines / {omittedBytes} bytes cut, sha256 {sha256}]', 'CUT\n', '');

export const spec = fc.record({ budget, transforms, cut: fc.option(cut, { nil: undefined }), marker }).map(({ budget, transforms, cut, marker }): OutputCompressionSpec => {
  const strategy = [...transforms, ...(cut ? [cut] : [])];
  return { id: 'prop', budget, strategy: strategy.length ? strategy : [{ type: 'head_tail' }], ...(marker !== undefined ? { marker } : {}) };
});

