// The Claude error table (src/adapters/claude/errors.ts): every text row whose source says
// "recorded" is matched by a failed tool_result of a corpus recording, and the call of that result
// comes out with the row's code. Rows not recorded yet are listed here and must match nothing, so
// the list is updated when a recording shows them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { RULES, failureMessage } from '../../src/adapters/claude/errors.js';
import { resultText } from '../../src/adapters/claude/output.js';
import { collect } from '../../src/pipeline/collect.js';
import { CORPUS, corpusAvailable, corpusFiles } from '../helpers/corpus.js';

const available = corpusAvailable();
const files = available ? corpusFiles('claude', (n) => n.endsWith('.jsonl')) : [];

interface Failure {
  file: string;
  id: string;
  message: string;
  structured?: unknown;
}

/** Failed tool_result blocks of a raw file, found by walking every JSON value. */
function failures(file: string, text: string): Failure[] {
  const out: Failure[] = [];
  const walk = (v: unknown, line: Record<string, unknown>): void => {
    if (Array.isArray(v)) return v.forEach((x) => walk(x, line));
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (o.type === 'tool_result' && o.is_error === true && typeof o.tool_use_id === 'string') {
      out.push({ file, id: o.tool_use_id, message: failureMessage(resultText(o.content)), structured: line.tool_use_result ?? line.toolUseResult });
    }
    for (const x of Object.values(o)) if (x && typeof x === 'object') walk(x, line);
  };
  for (const l of text.split('\n')) {
    if (!l.trim()) continue;
    try {
      const o = JSON.parse(l) as Record<string, unknown>;
      walk(o, o);
    } catch {
      // not JSON
    }
  }
  return out;
}

const textRules = RULES.map((rule, i) => ({ i, rule })).filter(({ rule }) => !rule.source.startsWith('system/'));
const NOT_RECORDED = textRules.filter(({ rule }) => !rule.source.startsWith('recorded:')).map(({ i }) => i);

describe.skipIf(!available)('claude error table', () => {
  const all = files.flatMap((f) => failures(f, readFileSync(join(CORPUS, f), 'utf8')));
  const firstText = (f: Failure) => textRules.find(({ rule }) => rule.test({ text: f.message, structured: f.structured, denied: false, shell: true }, f.message));

  it('the corpus has failed results to test with', () => {
    expect(all.length).toBeGreaterThan(10);
  });

  it.each(textRules.filter(({ i }) => !NOT_RECORDED.includes(i)))('row $i ($rule.code) is matched by a recorded result, whose call fails with that code', ({ i, rule }) => {
    const hits = all.filter((f) => firstText(f)?.i === i);
    expect(hits.length, `no recorded result matches row ${i}`).toBeGreaterThan(0);
    const partsByFile = new Map<string, Map<string, { state: string; error?: { code?: string } }>>();
    for (const hit of hits) {
      if (!partsByFile.has(hit.file)) {
        const parts = collect(claudeAdapter, [{ name: hit.file, text: readFileSync(join(CORPUS, hit.file), 'utf8') }]).parts as { id: string; state: string; error?: { code?: string } }[];
        partsByFile.set(hit.file, new Map(parts.map((p) => [p.id, p])));
      }
      const part = partsByFile.get(hit.file)!.get(hit.id);
      // A permission record (rule 0) outranks the text; an Exit code of a non-shell tool is tool_error.
      expect([rule.code, 'denied', 'tool_error'], `${hit.file} ${hit.id}`).toContain(part?.error?.code);
      if (rule.code !== 'exit_nonzero') expect(part?.error?.code === rule.code || part?.error?.code === 'denied', `${hit.file} ${hit.id}: ${part?.error?.code}`).toBe(true);
    }
  });

  it('the rows not recorded yet match no recorded result (update their source when one does)', () => {
    for (const i of NOT_RECORDED) expect(all.filter((f) => firstText(f)?.i === i), `row ${i}`).toEqual([]);
  });

  it('calls to missing tools ("No such tool available") keep the kind of the tool they named', () => {
    const found: string[] = [];
    for (const f of files.filter((x) => x.includes('/captured/'))) {
      const parts = collect(claudeAdapter, [{ name: f, text: readFileSync(join(CORPUS, f), 'utf8') }]).parts as { id: string; name: string; kind: string; state: string; error?: { code?: string } }[];
      for (const p of parts) if (p.error?.code === 'unknown_tool') found.push(`${p.name}:${p.kind}`);
    }
    expect([...new Set(found)].sort()).toEqual(['MultiEdit:file_edit', 'TodoWrite:todo']);
  });
});
