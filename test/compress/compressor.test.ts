// Behaviour of the declarative compressor, case by case: default specs, matching, line and ANSI
// awareness, collapse, JSON summaries, output shapes, spec errors and the derived event.
import { describe, expect, it } from 'vitest';
import { ContractError, isToolEvent, type NormalizedToolPart, type OutputCompressionSpec } from '../../src/contract/index.js';
import { CLAUDE_BASH_SPEC, CODEX_SPEC, DEFAULT_SPECS, DeclarativeCompressor, SpecError, compressText } from '../../src/compress/index.js';
import { bytes, lines, sha256 } from './reference.js';

const numbered = (n: number, width = 0) => Array.from({ length: n }, (_, i) => `line ${i} ${'x'.repeat(width ? i % width : 0)}`).join('\n') + '\n';
const spec = (over: Partial<OutputCompressionSpec>): OutputCompressionSpec => ({ id: 'test', budget: { maxBytes: 100 }, strategy: [{ type: 'head_tail' }], ...over });

const part = (output: unknown, over: Partial<NormalizedToolPart> = {}): NormalizedToolPart =>
  ({ id: 'p1', name: 'Bash', kind: 'bash', title: 'Run it', input: {}, state: 'complete', output, ...over }) as NormalizedToolPart;

describe('default specs', () => {
  it('Claude Bash: 30,000 bytes, middle cut, whole lines, marker names the omitted lines', () => {
    const text = numbered(35_000, 50);
    const r = compressText(text, CLAUDE_BASH_SPEC);
    expect(r.stats.keptBytes).toBeLessThanOrEqual(30_000);
    expect(r.stats.keptBytes).toBeGreaterThan(29_000);
    expect(r.head.endsWith('\n')).toBe(true);
    expect(r.tail.startsWith('line ')).toBe(true);
    expect(r.tail.endsWith('line 34999 ' + 'x'.repeat(34_999 % 50) + '\n')).toBe(true);
    expect(r.marker).toBe(`... [${r.stats.omittedLines} lines truncated] ...\n`);
    expect(r.stats.omittedLines).toBe(35_000 - lines(r.head) - lines(r.tail));
  });

  it('Codex: 10,000 bytes4 tokens, half head and half tail', () => {
    const text = numbered(35_000, 50);
    const r = compressText(text, CODEX_SPEC);
    expect(r.stats.keptTokens).toBeLessThanOrEqual(10_000);
    expect(Math.ceil(bytes(r.text) / 4)).toBe(r.stats.keptTokens);
    expect(Math.abs(bytes(r.head) - bytes(r.tail))).toBeLessThan(200);
    expect(r.marker).toMatch(/^…\d+ tokens truncated…\n$/);
    const omitted = Number(/…(\d+) tokens/.exec(r.marker)![1]);
    expect(omitted).toBe(r.stats.originalTokens - Math.ceil((bytes(r.head) + bytes(r.tail)) / 4));
  });

  it('match the part by provider and kind, first spec wins', () => {
    const c = new DeclarativeCompressor();
    expect(c.specFor({ name: 'Bash', kind: 'bash' }, 'claude')?.id).toBe('claude-bash');
    expect(c.specFor({ name: 'Read', kind: 'file_read' }, 'claude')).toBeUndefined();
    expect(c.specFor({ name: 'shell', kind: 'bash' }, 'codex')?.id).toBe('codex');
    expect(c.specFor({ name: 'Bash', kind: 'bash' }, 'opencode')).toBeUndefined();
    const first = new DeclarativeCompressor([spec({ id: 'a', match: { names: ['Bash'] } }), spec({ id: 'b' })]);
    expect(first.specFor({ name: 'Bash', kind: 'bash' }, 'claude')?.id).toBe('a');
    expect(first.specFor({ name: 'Grep', kind: 'bash' }, 'claude')?.id).toBe('b');
    expect(DEFAULT_SPECS.map((s) => s.id)).toEqual(['claude-bash', 'codex']);
  });
});

describe('cutting', () => {
  it('cuts on a line boundary when it wastes at most a quarter of a part', () => {
    const text = ['a', 'b', 'c', 'd', 'e', 'f'].map((c) => c.repeat(8) + '\n').join('');
    // 47 bytes: 7 for "[cut]" and its separators, 20 for each part; a line boundary costs 2.
    const r = compressText(text, spec({ budget: { maxBytes: 47 }, marker: '[cut]' }));
    expect(r.text).toBe('aaaaaaaa\nbbbbbbbb\n[cut]\neeeeeeee\nffffffff\n');
    // 39 bytes: 16 per part; a boundary would cost 7 (> 4), so both parts are cut mid-line.
    const m = compressText(text, spec({ budget: { maxBytes: 39 }, marker: '[cut]' }));
    expect(m.text).toBe('aaaaaaaa\nbbbbbbb\n[cut]\neeeeee\nffffffff\n');
  });

  it('cuts inside a long line rather than dropping it', () => {
    const long = 'start-' + 'y'.repeat(500) + '-end';
    const r = compressText(`short\n${long}\n`, spec({ budget: { maxBytes: 60 }, marker: '…' }));
    expect(r.head.startsWith('short\nstart-')).toBe(true);
    expect(r.tail.endsWith('-end\n')).toBe(true);
    expect(r.stats.omittedLines).toBe(0);
  });

  it('keeps whole lines under a line budget, marker included', () => {
    const r = compressText(numbered(100), spec({ budget: { maxLines: 5 }, marker: '[{omittedLines} lines]' }));
    expect(r.text).toBe('line 0 \nline 1 \n[96 lines]\nline 98 \nline 99 \n');
    expect(r.stats).toMatchObject({ keptLines: 5, omittedLines: 96, originalLines: 100 });
  });

  it('head and tail strategies keep one end only', () => {
    const h = compressText(numbered(100), spec({ budget: { maxLines: 3 }, strategy: [{ type: 'head' }], marker: '…' }));
    expect(h.text).toBe('line 0 \nline 1 \n…');
    const t = compressText(numbered(100), spec({ budget: { maxLines: 3 }, strategy: [{ type: 'tail' }], marker: '…' }));
    expect(t.text).toBe('…\nline 98 \nline 99 \n');
  });

  it('never splits a character: emoji and CJK at every budget', () => {
    const text = '🙂日本👨‍👩‍👧'.repeat(50);
    for (let maxBytes = 1; maxBytes < 120; maxBytes++) {
      const r = compressText(text, spec({ budget: { maxBytes }, marker: '' }));
      expect(bytes(r.text)).toBeLessThanOrEqual(maxBytes);
      expect(r.text).not.toContain('\ufffd');
      expect(text.startsWith(r.head) && text.endsWith(r.tail)).toBe(true);
      expect(Buffer.from(r.head).toString()).toBe(r.head);
    }
  });

  it('never cuts inside an escape sequence, and resets a style left on before the marker', () => {
    const text = '\x1b[31m' + 'red '.repeat(50) + '\x1b]8;;https://example.test/a/long/link\x07' + 'z'.repeat(100) + '\x1b[0m';
    for (let maxBytes = 30; maxBytes < 200; maxBytes += 7) {
      const r = compressText(text, spec({ budget: { maxBytes }, marker: '[cut]' }));
      expect(r.head.startsWith('\x1b[31m')).toBe(true);
      expect(r.marker.startsWith('\n\x1b[0m[cut]')).toBe(true);
      expect(/\x1b(\[[0-9;]*)?$/.test(r.head)).toBe(false);
      expect(bytes(r.text)).toBeLessThanOrEqual(maxBytes);
    }
  });

  it('falls back to a short marker, then to none, when the budget is tiny', () => {
    const long = 'x'.repeat(1000);
    const short = compressText(long, spec({ budget: { maxBytes: 12 }, marker: 'a very long marker that cannot fit' }));
    expect(short.marker).toBe('\n[…]\n');
    const none = compressText(long, spec({ budget: { maxBytes: 3 } }));
    expect(none.marker).toBe('');
    expect(none.text).toBe('xxx');
  });

  it('never pairs lone surrogates from the two ends into a new character when there is no marker', () => {
    // Found by the streaming property (seed 1942881371): the head's lone \ud800 and the tail's lone
    // \udfff made U+103FF, a character that is not in the input, and bytes the stream never gave.
    const t = '\ud800\u{1F642}\udfff';
    const r = compressText(t, spec({ budget: { maxBytes: 6 } }));
    expect(r.marker).toBe('');
    expect(r.text).toBe('\ufffd\ufffd');
    expect(Buffer.from(r.text, 'utf8').equals(Buffer.from('\ufffd\ufffd', 'utf8'))).toBe(true);
    expect(r.text.codePointAt(0)).not.toBe(0x103ff);
    // Its pieces are U+FFFD, not the caller's code units, and it says so.
    expect(r.exactSlices).toBe(false);
    expect(r.text).toBe(r.head + r.marker + r.tail);
    // A lone surrogate that meets a marker, or meets nothing, is still handed back as given.
    const marked = compressText(`\ud800${'x'.repeat(200)}\udfff`, spec({ budget: { maxBytes: 40 } }));
    expect(marked.marker).not.toBe('');
    expect(marked.text.startsWith('\ud800')).toBe(true);
    expect(marked.text.endsWith('\udfff')).toBe(true);
  });

  it('fills every marker placeholder', () => {
    const text = numbered(50);
    const r = compressText(text, spec({ budget: { maxLines: 3 }, marker: '{omittedLines}|{omittedBytes}|{omittedTokens}|{originalLines}|{originalBytes}|{sha256}' }));
    const [ol, ob, ot, orl, orb, sha] = r.marker.trim().split('|');
    expect(Number(ol)).toBe(r.stats.omittedLines);
    expect(Number(ob)).toBe(r.stats.omittedBytes);
    expect(Number(ot)).toBe(r.stats.originalTokens - Math.ceil((bytes(r.head) + bytes(r.tail)) / 4));
    expect([Number(orl), Number(orb)]).toEqual([50, bytes(text)]);
    expect(sha).toBe(sha256(text));
  });

  it('a spec without a cut step still keeps its budget (implicit head_tail)', () => {
    const r = compressText(numbered(200), spec({ budget: { maxBytes: 80 }, strategy: [{ type: 'ansi_strip' }] }));
    expect(bytes(r.text)).toBeLessThanOrEqual(80);
    expect(r.stats.strategy).toBe('head_tail');
  });
});

describe('transform steps', () => {
  it('ansi_strip removes colour, cursor and hyperlink sequences', () => {
    const text = ('\x1b[1;32m✓\x1b[0m pass \x1b]8;;https://x.test\x07link\x1b]8;;\x07 \x1b[2K\n').repeat(40);
    const r = compressText(text, spec({ budget: { maxBytes: 2000 }, strategy: [{ type: 'ansi_strip' }, { type: 'head_tail' }] }));
    expect(r.compressed).toBe(true);
    expect(r.text).toBe('✓ pass link \n'.repeat(40));
    expect(r.stats.strategy).toBe('ansi_strip');
    expect(r.stats.omittedBytes).toBe(bytes(text) - bytes(r.text));
    expect(r.stats.omittedLines).toBe(0);
  });

  it('collapse_repeats folds runs into one line with ×N, keeping CRLF endings', () => {
    const text = 'start\r\n' + 'waiting...\r\n'.repeat(500) + 'done\r\n';
    const r = compressText(text, spec({ budget: { maxBytes: 100 }, strategy: [{ type: 'collapse_repeats' }, { type: 'head_tail' }] }));
    expect(r.text).toBe('start\r\nwaiting... ×500\r\ndone\r\n');
    expect(r.stats).toMatchObject({ strategy: 'collapse_repeats', omittedLines: 499, keptLines: 3 });
    expect(r.addedBytes).toBe(bytes(' ×500'));
    expect(r.stats.omittedBytes).toBe(bytes(text) - (bytes(r.text) - bytes(' ×500')));
  });

  it('collapse_repeats leaves runs shorter than minRun alone', () => {
    const text = 'a\na\nb\nb\nb\nc\n'.repeat(30);
    const r = compressText(text, spec({ budget: { maxBytes: 150 }, strategy: [{ type: 'collapse_repeats', minRun: 3 }, { type: 'head_tail' }] }));
    expect(r.text.startsWith('a\na\nb ×3\nc\n')).toBe(true);
  });

  it('json_summary keeps every key, cuts long arrays and strings, and says how much', () => {
    const value = { status: 'ok', items: Array.from({ length: 500 }, (_, i) => ({ id: i, name: `item-${i}` })), log: 'L'.repeat(5000), nested: { deep: [1, 2, 3] } };
    const text = JSON.stringify(value, null, 2);
    const r = compressText(text, spec({ budget: { maxBytes: 4000 }, strategy: [{ type: 'json_summary', maxArrayItems: 5, maxStringLength: 50 }, { type: 'head_tail' }] }));
    expect(r.stats.strategy).toBe('json_summary');
    const parsed = JSON.parse(r.text) as typeof value & { items: unknown[] };
    expect(Object.keys(parsed)).toEqual(['status', 'items', 'log', 'nested']);
    expect(parsed.items.slice(0, 5)).toEqual(value.items.slice(0, 5));
    expect(parsed.items[5]).toBe('… 495 more items');
    expect(parsed.log).toBe('L'.repeat(50) + '…(+4950 chars)');
    expect(parsed.nested).toEqual(value.nested);
    expect(r.text.startsWith('{\n  "status": "ok"')).toBe(true);
  });

  it('json_summary tightens its limits until the summary fits, then cuts as a last resort', () => {
    const value = { rows: Array.from({ length: 2000 }, (_, i) => ({ i, s: 'v'.repeat(300) })) };
    const fits = compressText(JSON.stringify(value), spec({ budget: { maxBytes: 1500 }, strategy: [{ type: 'json_summary' }, { type: 'head_tail' }] }));
    expect(fits.stats.strategy).toBe('json_summary');
    expect(() => JSON.parse(fits.text)).not.toThrow();
    expect(bytes(fits.text)).toBeLessThanOrEqual(1500);
    const cut = compressText(JSON.stringify(value), spec({ budget: { maxBytes: 10 }, strategy: [{ type: 'json_summary' }, { type: 'head_tail' }] }));
    expect(cut.stats.strategy).toBe('json_summary+head_tail');
    expect(bytes(cut.text)).toBeLessThanOrEqual(10);
  });

  it('json_summary leaves text that is not JSON to the cut', () => {
    const r = compressText('not json '.repeat(100), spec({ strategy: [{ type: 'json_summary' }, { type: 'head_tail' }] }));
    expect(r.stats.strategy).toBe('head_tail');
    expect(r.exactSlices).toBe(true);
  });
});

describe('output shapes', () => {
  const c = new DeclarativeCompressor([spec({ budget: { maxBytes: 200 }, strategy: [{ type: 'json_summary', maxArrayItems: 3 }, { type: 'head_tail' }] })]);

  it('a string stays a string', () => {
    const r = c.compressOutput('z'.repeat(1000), 'test')!;
    expect(typeof r.output).toBe('string');
    expect(bytes(r.output as string)).toBeLessThanOrEqual(200);
  });

  it('a {text,…} output gets its text compressed and keeps every other field', () => {
    const out = { text: 'z\n'.repeat(1000), content: [{ type: 'resource', uri: 'file:///a' }], structured: { exitCode: 0 } };
    const r = c.compressOutput(out, 'test')!;
    const o = r.output as typeof out;
    expect(o.content).toEqual(out.content);
    expect(o.structured).toEqual(out.structured);
    expect(bytes(o.text)).toBeLessThanOrEqual(200);
    expect(r.result.sha256).toBe(sha256(out.text));
  });

  it('any other JSON value is summarised as a value when the summary fits', () => {
    const out = { files: Array.from({ length: 100 }, (_, i) => `f${i}.ts`) };
    const r = c.compressOutput(out, 'test')!;
    expect(r.output).toEqual({ files: ['f0.ts', 'f1.ts', 'f2.ts', '… 97 more items'] });
    expect(r.result.sha256).toBe(sha256(JSON.stringify(out)));
  });

  it('outputs that fit, or that no step can shrink, are left alone', () => {
    expect(c.compressOutput('short', 'test')).toBeUndefined();
    expect(c.compressOutput({ text: 'short' }, 'test')).toBeUndefined();
    expect(new DeclarativeCompressor([spec({})]).compressOutput({ files: Array(5).fill('x') }, 'test')).toBeUndefined();
    expect(c.compressOutput(42, 'test')).toBeUndefined();
  });

  it('a structured output over the budget without json_summary is cut as its JSON text (no view carries more than the budget)', () => {
    const done = new DeclarativeCompressor([spec({})]).compressOutput({ files: Array(500).fill('x') }, 'test')!;
    expect(typeof done.output).toBe('string');
    expect(Buffer.byteLength(done.output as string)).toBeLessThanOrEqual(100);
    expect(done.result.stats.originalBytes).toBe(Buffer.byteLength(JSON.stringify({ files: Array(500).fill('x') })));
  });
});

describe('compressPart', () => {
  const c = new DeclarativeCompressor();
  const ctx = { sessionId: 's1', provider: 'claude' as const, seq: 7, at: 123 };
  const big = numbered(35_000, 50);

  it('derives a valid tool.output.compressed event that points at the original', () => {
    const e = c.compressPart(part({ text: big, structured: { stdout: big } }), ctx)!;
    expect(isToolEvent(e)).toBe(true);
    expect(e).toMatchObject({ type: 'tool.output.compressed', sessionId: 's1', partId: 'p1', at: 123, source: { provider: 'claude' } });
    expect(e.compression.original).toEqual({ partId: 'p1', seq: 7, sha256: sha256(big) });
    expect(e.compression.stats.specId).toBe('claude-bash');
    const noSeq = c.compressPart(part(big), { ...ctx, seq: undefined })!;
    expect(noSeq.compression.original).toEqual({ partId: 'p1', sha256: sha256(big) });
  });

  it('returns undefined for parts that are not complete, do not match, or fit', () => {
    expect(c.compressPart(part(big, { state: 'running' } as Partial<NormalizedToolPart>), ctx)).toBeUndefined();
    expect(c.compressPart(part(big, { kind: 'file_read', name: 'Read' }), ctx)).toBeUndefined();
    expect(c.compressPart(part('fits'), ctx)).toBeUndefined();
    const noOutput = { id: 'p1', name: 'Bash', kind: 'bash', title: 't', input: {}, state: 'complete' } as NormalizedToolPart;
    expect(c.compressPart(noOutput, ctx)).toBeUndefined();
  });
});

describe('spec errors name the spec and the rule', () => {
  const bad = (s: unknown) => () => new DeclarativeCompressor([s]);
  it('schema-invalid specs', () => {
    expect(bad({ id: 'x', budget: {}, strategy: [{ type: 'head' }] })).toThrow(ContractError);
    expect(bad({ id: 'x', budget: { maxBytes: 1 }, strategy: [{ type: 'middle' }] })).toThrow(ContractError);
  });
  it('rules the schema cannot say', () => {
    expect(bad(spec({ strategy: [{ type: 'head' }, { type: 'tail' }] }))).toThrow(/"test": has 2 cut steps/);
    expect(bad(spec({ strategy: [{ type: 'head' }, { type: 'ansi_strip' }] }))).toThrow(/cut step head must be the last step/);
    expect(bad(spec({ marker: '{omitted} {sha}' }))).toThrow(/unknown placeholder\(s\) \{omitted\}, \{sha\}/);
    expect(() => new DeclarativeCompressor([spec({}), spec({})])).toThrow(SpecError);
    expect(() => new DeclarativeCompressor().spec('nope')).toThrow(/no compression spec "nope"; known: claude-bash, codex/);
  });
});
