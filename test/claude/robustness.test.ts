// Never throw on input: the Claude fixture lines (stream-json, partial messages, transcripts,
// subagent files) with values replaced, fields dropped and lines cut still go through. Every event
// the adapter emits validates, no part ends twice, and through the pipeline every line is counted
// and no adapter failure or contract break is reported.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import type { Diagnostic, ToolEvent } from '../../src/contract/index.js';
import { NormalizePipeline } from '../../src/pipeline/normalize.js';
import { CORPUS, REPO_ROOT, corpusAvailable, corpusFiles } from '../helpers/corpus.js';
import { assertArbitraryLinesReported, expectValidEventsOneTerminalEach, mutate, mutationValue, type Json } from '../helpers/mutation.js';
import { adapterEvents } from '../helpers/run-lines.js';

const DIR = join(REPO_ROOT, 'fixtures', 'claude');

function jsonlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return jsonlFiles(p);
    return name.endsWith('.jsonl') ? [p] : [];
  });
}

const fixtureLines = jsonlFiles(DIR).flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.trim()));

/**
 * The recorded sessions add the transcript forms the fixtures lack (progress lines of every kind,
 * bookkeeping lines): up to five lines of each line form per file, lines over 20 KB left out so
 * the property stays fast.
 */
function corpusSample(): string[] {
  const out: string[] = [];
  for (const rel of corpusFiles('claude', (n) => n.endsWith('.jsonl'))) {
    const seen = new Map<string, number>();
    for (const l of readFileSync(join(CORPUS, rel), 'utf8').split('\n')) {
      if (!l.trim() || l.length > 20_000) continue;
      let form: string;
      try {
        const o = JSON.parse(l) as { type?: unknown; subtype?: unknown; data?: { type?: unknown } };
        form = `${String(o.type)}/${String(o.subtype ?? o.data?.type ?? '')}`;
      } catch {
        continue;
      }
      const n = seen.get(form) ?? 0;
      if (n >= 5) continue;
      seen.set(form, n + 1);
      out.push(l);
    }
  }
  return out;
}

const withCorpus = corpusAvailable();
const lines = [...fixtureLines, ...(withCorpus ? corpusSample() : [])];


// Values that steer the adapter into its branches: line and block types, subtypes, ids it may
// already know, error flags.
const value = mutationValue([
  'assistant', 'user', 'system', 'progress', 'stream_event', 'tool_progress', 'control_request', 'tool_use', 'tool_result', 'server_tool_use',
  'task_started', 'task_notification', 'permission_denied', 'agent_progress', 'bash_progress', 'content_block_start', 'input_json_delta',
  'toolu_01', 'mcp__srv__tool', 'Task', 'Bash', '2026-02-10T21:54:15.897Z',
]);

const edit = fc.record({
  line: fc.integer({ min: 0, max: lines.length - 1 }),
  path: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
  value,
  cut: fc.option(fc.nat(), { nil: undefined }),
});

function edited(edits: { line: number; path: number[]; value: Json | undefined; cut: number | undefined }[]): string[] {
  return edits.map((e) => {
    const raw = lines[e.line]!;
    if (e.cut !== undefined) return raw.slice(0, e.cut % raw.length);
    return JSON.stringify(mutate(JSON.parse(raw) as Json, e.path, e.value));
  });
}

const runAdapter = (input: string[]) => adapterEvents(claudeAdapter, input);

describe('claude adapter robustness', () => {
  it('has lines of every form to mutate', () => {
    const types = new Set(lines.map((l) => (JSON.parse(l) as { type?: string }).type));
    for (const t of ['assistant', 'user', 'system', 'stream_event', 'tool_progress']) expect(types).toContain(t);
    // Transcript progress lines (agent, bash, hook) come from the recorded sessions.
    if (withCorpus) expect(types).toContain('progress');
  });

  it('mutated fixture lines never throw and produce only valid events, one terminal per part (500 inputs)', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 40 }), (edits) => {
        const { events } = runAdapter(edited(edits));
        expectValidEventsOneTerminalEach(events);
      }),
      { numRuns: 500 },
    );
  });

  it('through the pipeline, every mutated line is counted and none breaks the adapter or the contract (300 inputs)', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 40 }), (edits) => {
        const input = edited(edits);
        const diagnostics: Diagnostic[] = [];
        const parts: { id: string }[] = [];
        const p = new NormalizePipeline(claudeAdapter, { to: 'parts', clock: () => 0 }, { output: (r) => parts.push(r as { id: string }), diagnostic: (d) => diagnostics.push(d) });
        input.forEach((l, i) => p.line(l, { line: i + 1, offset: 0 }));
        const summary = p.end();
        expect(summary.inputLines).toBe(input.length);
        expect(diagnostics.filter((d) => d.code === 'adapter_error' || d.code === 'invalid_event'), JSON.stringify(diagnostics.slice(0, 3))).toEqual([]);
        expect(summary.parts).toBe(parts.length);
        expect(new Set(parts.map((x) => x.id)).size).toBe(parts.length);
      }),
      { numRuns: 300 },
    );
  });

  it('arbitrary JSON and text lines are reported, not thrown', () => {
    assertArbitraryLinesReported(runAdapter);
  });
});
