// Budgets mean budgets (issue 16): under `--output compressed` no view of a part carries more than
// the budget: not `output`, not `output.structured` (Claude's `structured.stdout` used to carry all
// 61 MB), not ACP `content` or `rawOutput`, not UI parts; and each view points back to the original
// event (`metadata.compression.original`). A property over every recorded output (inflated, with
// random budgets), and one 61 MB Bash output through the CLI.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adapterById } from '../../src/adapters/registry.js';
import type { NormalizedToolPart, OutputCompressionSpec, ToolEvent } from '../../src/contract/index.js';
import { DeclarativeCompressor, sideLimit } from '../../src/compress/compressor.js';
import { decodeFrames } from '../../src/acp/decode.js';
import { NormalizePipeline, type OutputFormat } from '../../src/outputs/pipeline.js';
import { corpusLines } from '../../fuzz/corpus.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { cli } from '../helpers/cli.js';

type Obj = Record<string, unknown>;
const bytes = (v: unknown) => Buffer.byteLength(typeof v === 'string' ? v : JSON.stringify(v) ?? '', 'utf8');
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a cut side field becomes: a fixed-size marker, not a piece of the value. */
const isMarker = (v: unknown) => (typeof v === 'string' && /^\[omitted by toolnorm: \d+ bytes; the full value is in the original event\]$/.test(v)) || (isObj(v) && Object.keys(v).join() === 'omittedBytes');

/** Problems of one output view against a text budget and the side-field limit. */
function outputProblems(output: unknown, budget: number, limit: number, where: string): string[] {
  if (output === undefined) return [];
  if (typeof output === 'string') return bytes(output) > budget ? [`${where}: ${bytes(output)} bytes > ${budget}`] : [];
  if (!isObj(output) || typeof output.text !== 'string') return bytes(output) > budget ? [`${where}: ${bytes(output)} bytes of JSON > ${budget}`] : [];
  const out: string[] = [];
  if (bytes(output.text) > budget) out.push(`${where}.text: ${bytes(output.text)} bytes > ${budget}`);
  for (const [k, v] of Object.entries(output)) {
    if (k === 'text' || v === null || typeof v === 'boolean' || typeof v === 'number' || isMarker(v) || bytes(v) <= limit) continue;
    if (isObj(v)) {
      for (const [m, x] of Object.entries(v)) if ((typeof x === 'string' || (typeof x === 'object' && x !== null)) && !isMarker(x) && bytes(x) > limit) out.push(`${where}.${k}.${m}: ${bytes(x)} bytes > ${limit}`);
    } else out.push(`${where}.${k}: ${bytes(v)} bytes > ${limit}`);
  }
  return out;
}

/** Every view a run printed, checked; compressed parts must name their original. */
function viewProblems(to: OutputFormat, records: unknown[], budget: number, limit: number): string[] {
  const out: string[] = [];
  for (const r of records) {
    if (to === 'parts') {
      const p = r as NormalizedToolPart & { output?: unknown };
      out.push(...outputProblems(p.output, budget, limit, `part ${p.id} output`));
      const c = p.metadata?.compression as { original?: { partId?: string } } | undefined;
      if (c && c.original?.partId !== p.id) out.push(`part ${p.id}: compression does not point back to the original`);
    } else if (to === 'ui') {
      const u = r as { toolCallId: string; output?: unknown };
      out.push(...outputProblems(u.output, budget, limit, `ui ${u.toolCallId} output`));
    } else {
      const u = (r as { params: { update: Obj } }).params.update;
      // rawOutput leaves out what content shows (each byte once on the wire), so the output a
      // client rebuilds from the frames is what is checked; rawOutput is a part of it.
      const decoded = decodeFrames([(r as { params: unknown }).params]).parts[0] as { output?: unknown } | undefined;
      out.push(...outputProblems(decoded?.output, budget, limit, `acp ${String(u.toolCallId)} decoded output`));
      for (const c of (u.content as Obj[] | undefined) ?? []) {
        const text = isObj(c.content) ? c.content.text : undefined;
        if (typeof text === 'string' && bytes(text) > budget) out.push(`acp ${String(u.toolCallId)} content: ${bytes(text)} bytes > ${budget}`);
      }
    }
  }
  return out;
}

/** Complete parts with an output, from every recorded Claude, Codex and OpenCode line. */
function recordedOutputs(): NormalizedToolPart[] {
  const parts: NormalizedToolPart[] = [];
  for (const provider of ['claude', 'codex', 'opencode'] as const) {
    const p = new NormalizePipeline(adapterById(provider)!, { to: 'parts', clock: () => 0 }, { output: (r) => parts.push(r as NormalizedToolPart), diagnostic: () => {} });
    corpusLines(provider, REPO_ROOT).forEach((l, i) => p.line(l, { line: i + 1, offset: 0 }));
    p.end();
  }
  return parts.filter((p) => p.state === 'complete' && 'output' in p && p.output !== undefined);
}

/** Every string in a value repeated `k` times (the value is small: corpus outputs). */
function inflate(v: unknown, k: number): unknown {
  if (typeof v === 'string') return v.repeat(k);
  if (Array.isArray(v)) return v.map((x) => inflate(x, k));
  if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([key, x]) => [key, inflate(x, k)]));
  return v;
}

describe('no compressed view exceeds its budget', () => {
  const parts = recordedOutputs();

  it(`over every recorded output, inflated, with random budgets (${parts.length} outputs)`, () => {
    expect(parts.length).toBeGreaterThan(50);
    fc.assert(
      fc.property(fc.nat(parts.length - 1), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 16, max: 8192 }), fc.constantFrom<OutputFormat>('parts', 'acp', 'ui'), (i, k, maxBytes, to) => {
        const part = parts[i]!;
        const spec: OutputCompressionSpec = { id: 'prop', budget: { maxBytes }, strategy: [{ type: 'head_tail', headRatio: 0.5 }] };
        const env = { sessionId: 's1', partId: part.id, source: { provider: 'claude' as const } };
        const events: ToolEvent[] = [
          { type: 'tool.started', ...env, at: 1, name: part.name, kind: part.kind, title: part.title, input: part.input },
          { type: 'tool.completed', ...env, at: 2, output: inflate((part as { output: unknown }).output, k) },
        ];
        const printed: unknown[] = [];
        const p = new NormalizePipeline(adapterById('events')!, { to, output: 'compressed', compressor: new DeclarativeCompressor([spec]) }, { output: (r) => printed.push(r), diagnostic: () => {} });
        events.forEach((e, n) => p.line(JSON.stringify(e), { line: n + 1, offset: 0 }));
        p.end();
        expect(printed.length).toBeGreaterThan(0);
        expect(viewProblems(to, printed, maxBytes, sideLimit(spec))).toEqual([]);
      }),
      { numRuns: 1500 },
    );
  });

  it('a 61 MB Bash output: every view of parts, ACP and UI under --output compressed stays within 30,000 bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolnorm-budget-'));
    const file = join(dir, 'big.jsonl');
    const big = 'src/components/Button.tsx:42: const x = useMemo(() => compute(a, b), [a, b]);\n'.repeat(Math.ceil((61 * 1024 * 1024) / 78));
    writeFileSync(file, [
      { type: 'assistant', session_id: 's1', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_big', name: 'Bash', input: { command: 'cat big' } }] } },
      { type: 'user', session_id: 's1', tool_use_result: { stdout: big, stderr: '', interrupted: false, isImage: false }, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_big', content: big }] } },
    ].map((l) => JSON.stringify(l)).join('\n'));
    for (const to of ['parts', 'acp', 'ui'] as const) {
      const r = await cli(['normalize', '--from', 'claude', '--to', to, '--output', 'compressed', file]);
      expect(r.code).toBe(0);
      // One part (parts, ui); its frames (acp); and nothing to report.
      if (to !== 'acp') expect(r.lines).toHaveLength(1);
      else expect(r.lines.length).toBeGreaterThan(0);
      expect(r.stderr).toBe('');
      expect(r.stdout.length).toBeLessThan(200_000);
      expect(viewProblems(to, r.lines, 30_000, 1024)).toEqual([]);
      if (to === 'parts') {
        const part = r.lines[0] as { output: { text: string; structured: Obj }; metadata: { compression: { original: { partId: string } } } };
        expect(part.metadata.compression.original.partId).toBe('toolu_big');
        expect(String(part.output.structured.stdout)).toMatch(/^\[omitted by toolnorm: \d+ bytes; the full value is in the original event\]$/);
      }
    }
  });
});
