// Every file of ../shared/corpus/codex: recordings (through the shared corpus runner) normalize with
// counts matching an independent raw scan (test/helpers/scan-codex.ts); the other files (README,
// driver scripts) go through without a crash, each line reported as malformed.
import { describe, expect, it } from 'vitest';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { collect, splitLines } from '../../src/pipeline/collect.js';
import { validateNormalizedToolPart } from '../../src/contract/index.js';
import { corpusFiles } from '../helpers/corpus.js';
import { corpusSuite, nameOf, readCorpus as read } from '../helpers/corpus-suite.js';
import { scanCodex } from '../helpers/scan-codex.js';

const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

const { available, recordings } = corpusSuite({
  provider: 'codex',
  adapter: codexAdapter,
  isRecording: (n) => n.endsWith('.jsonl'),
  checks: {
    'one valid part per tool id, ended calls terminal, no unknown kind, no empty title': ({ text, r }) => {
      const raw = scanCodex(text);
      expect(r.diagnostics).toEqual([]);
      const ids = r.parts.map((p) => p.id);
      expect(ids.length).toBe(raw.tools.size);
      expect(new Set(ids)).toEqual(raw.tools);
      for (const p of r.parts) {
        expect(validateNormalizedToolPart(p), `${p.id} validates`).toBe(true);
        if (raw.ended.has(p.id)) expect(['complete', 'error'], p.id).toContain(p.state);
        expect(p.kind, p.id).not.toBe('unknown');
        expect(p.title.trim(), p.id).not.toBe('');
        expect(p.title, p.id).not.toBe(p.name);
        expect(p.metadata?.provider).toBe('codex');
      }
      // Agent messages and reasoning make no parts.
      for (const id of raw.nonTool) expect(ids, id).not.toContain(id);
      // Exactly the calls the recording reports as failed end in error.
      expect(new Set(r.parts.filter((p) => p.state === 'error').map((p) => p.id))).toEqual(raw.failed);
    },
  },
});
const others = available ? corpusFiles('codex', (n) => !n.endsWith('.jsonl')) : [];

describe.skipIf(!available)('codex corpus', () => {
  it('has the recordings this suite expects', () => {
    expect(recordings.filter((f) => f.includes('/public/'))).toHaveLength(3);
    expect(recordings.filter((f) => f.includes('/captured/')).length).toBeGreaterThanOrEqual(5);
    expect(others.length).toBeGreaterThan(0);
  });

  it('the {dir, msg} app-server capture, unwrapped to bare messages, gives the same parts', () => {
    const rel = 'codex/captured/appserver_tools.jsonl';
    const wrapped = read(rel);
    expect(wrapped.split('\n').filter(Boolean).every((l) => 'dir' in (JSON.parse(l) as object))).toBe(true);
    const bare = wrapped.split('\n').filter(Boolean).map((l) => JSON.stringify((JSON.parse(l) as { msg: unknown }).msg)).join('\n');
    const a = collect(codexAdapter, [{ name: 'wrapped.jsonl', text: wrapped }]);
    const b = collect(codexAdapter, [{ name: 'bare.jsonl', text: bare }]);
    expect(b.diagnostics).toEqual([]);
    expect(b.parts.length).toBe(scanCodex(wrapped).tools.size);
    expect(plain(b.parts)).toEqual(plain(a.parts));
  });

  it('the counts are not vacuous', () => {
    const totals = recordings.map((rel) => scanCodex(read(rel)));
    expect(totals.reduce((n, s) => n + s.tools.size, 0)).toBeGreaterThan(140);
    expect(totals.reduce((n, s) => n + s.failed.size, 0)).toBeGreaterThanOrEqual(15);
    expect(totals.reduce((n, s) => n + s.nonTool.size, 0)).toBeGreaterThan(5);
  });

  it.each(others)('%s (not a recording) goes through without a crash, every line reported', (rel) => {
    const text = read(rel);
    const r = collect(codexAdapter, [{ name: nameOf(rel), text }]);
    expect(r.parts).toEqual([]);
    const nonEmpty = splitLines(text).filter((l) => l.text.trim()).length;
    expect(r.diagnostics.filter((d) => d.code === 'malformed_line')).toHaveLength(nonEmpty);
  });
});
