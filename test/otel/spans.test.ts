// `--to otel` on a subagent recording of each provider, read back and checked against the parts;
// and the same parts through a real OpenTelemetry SDK (BasicTracerProvider + InMemorySpanExporter)
// via recordToolSpans, whose spans the SDK's own OTLP/JSON serializer writes exactly as the CLI does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as api from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { collect } from '../../src/pipeline/collect.js';
import { detectAdapter } from '../../src/adapters/registry.js';
import type { NormalizedToolPart } from '../../src/contract/index.js';
import { recordToolSpans } from '../../src/otel/index.js';
import { CORPUS, corpusAvailable } from '../helpers/corpus.js';
import { fixturePath } from '../helpers/golden-cases.js';
import { normalizeWithDiagnostics } from '../helpers/ecosystem.js';

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: Record<string, unknown> }[];
  status: { code: number; message?: string };
}
interface Request { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] }

const spansOf = (requests: unknown[]): Span[] => (requests as Request[]).flatMap((r) => r.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans)));
const attr = (s: Span, key: string): unknown => {
  const v = s.attributes.find((a) => a.key === key)?.value;
  return v ? Object.values(v)[0] : undefined;
};
const nanos = (ms: number) => `${BigInt(ms) * 1000000n}`;

function load(path: string) {
  const text = readFileSync(path, 'utf8');
  const adapter = detectAdapter({ lines: text.split('\n').filter((l) => l.trim()).slice(0, 20), file: path })!.adapter;
  return collect(adapter, [{ name: path.split('/').pop()!, text }]);
}

const timed = (p: NormalizedToolPart) => (p.state === 'complete' || p.state === 'error') && typeof p.timing?.startedAt === 'number' && p.timing.startedAt > 0 && typeof p.timing.completedAt === 'number';

/**
 * The checks of both paths: one span per timed part, named after GenAI's execute_tool, with the
 * part's times and status; parents from metadata.parentId, else the session's invoke_agent span;
 * one trace per session tree.
 */
function checkSpans(spans: Span[], sessions: Map<string, NormalizedToolPart[]>) {
  const toolSpans = spans.filter((s) => attr(s, 'gen_ai.operation.name') === 'execute_tool');
  const sessionSpans = spans.filter((s) => attr(s, 'gen_ai.operation.name') === 'invoke_agent');
  expect(toolSpans.length + sessionSpans.length).toBe(spans.length);
  const bySpanId = new Map(spans.map((s) => [s.spanId, s]));
  const sessionSpan = new Map(sessionSpans.map((s) => [attr(s, 'gen_ai.conversation.id') as string, s]));
  const toolSpan = new Map(toolSpans.map((s) => [`${attr(s, 'gen_ai.conversation.id')}\u0000${attr(s, 'gen_ai.tool.call.id')}`, s]));
  const where = new Map<string, string>();
  for (const [sid, parts] of sessions) for (const p of parts) where.set(p.id, sid);
  let expected = 0;
  let children = 0;
  for (const [sid, parts] of sessions) {
    const withTimes = parts.filter(timed);
    expected += withTimes.length;
    if (withTimes.length) {
      const ss = sessionSpan.get(sid)!;
      expect(ss, `session span of ${sid}`).toBeDefined();
      expect(ss.startTimeUnixNano).toBe(nanos(Math.min(...withTimes.map((p) => p.timing!.startedAt as number))));
      expect(ss.endTimeUnixNano).toBe(nanos(Math.max(...withTimes.map((p) => p.timing!.completedAt as number))));
    } else expect(sessionSpan.has(sid)).toBe(false);
    for (const p of withTimes) {
      const s = toolSpan.get(`${sid}\u0000${p.id}`)!;
      expect(s, p.id).toBeDefined();
      expect(s.name).toBe(`execute_tool ${p.name}`);
      expect(s.kind).toBe(1);
      expect(attr(s, 'gen_ai.tool.name')).toBe(p.name);
      expect(attr(s, 'gen_ai.tool.type')).toMatch(/^(function|extension)$/);
      expect(s.startTimeUnixNano).toBe(nanos(p.timing!.startedAt as number));
      expect(s.endTimeUnixNano).toBe(nanos(p.timing!.completedAt as number));
      if (p.state === 'error') {
        expect(s.status).toEqual({ code: 2, message: p.error.message });
        expect(attr(s, 'error.type')).toBe(p.error.code ?? '_OTHER');
      } else {
        expect(s.status.code).toBe(0);
        expect(attr(s, 'error.type')).toBeUndefined();
      }
      // Arguments and results are opt-in.
      expect(attr(s, 'gen_ai.tool.call.arguments')).toBeUndefined();
      const parentId = p.metadata?.parentId;
      const parent = bySpanId.get(s.parentSpanId!);
      expect(parent, `${p.id} has its parent span`).toBeDefined();
      if (typeof parentId === 'string' && where.get(parentId) === sid) {
        children++;
        expect(attr(parent!, 'gen_ai.tool.call.id'), `${p.id} under its parent call`).toBe(parentId);
      } else {
        expect(parent).toBe(sessionSpan.get(sid));
      }
      expect(s.traceId).toBe(parent!.traceId);
    }
  }
  expect(toolSpans.length).toBe(expected);
  expect(sessionSpans.length).toBe([...sessions.values()].filter((ps) => ps.some(timed)).length);
  return { children, toolSpans: toolSpans.length };
}

/** Spans keyed by what they stand for instead of their ids, to compare two writers. */
function canonical(spans: Span[]) {
  const key = (s: Span) => (attr(s, 'gen_ai.operation.name') === 'execute_tool' ? `tool:${attr(s, 'gen_ai.conversation.id')}:${attr(s, 'gen_ai.tool.call.id')}` : `session:${attr(s, 'gen_ai.conversation.id')}`);
  const keyOf = new Map(spans.map((s) => [s.spanId, key(s)]));
  const traceOf = new Map<string, string>();
  return spans
    .map((s) => {
      // Trace ids differ between writers; which spans share one must not.
      if (!traceOf.has(s.traceId)) traceOf.set(s.traceId, key(s));
      return { key: key(s), parent: s.parentSpanId ? keyOf.get(s.parentSpanId) ?? 'missing' : null, name: s.name, kind: s.kind, start: s.startTimeUnixNano, end: s.endTimeUnixNano, status: s.status, attributes: [...s.attributes].sort((a, b) => a.key.localeCompare(b.key)), trace: s.traceId };
    })
    .map((s) => ({ ...s, trace: [...spans.filter((x) => x.traceId === s.trace).map(key)].sort()[0] }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

async function throughSdk(sessions: Map<string, NormalizedToolPart[]>) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const result = await recordToolSpans(provider.getTracer('toolnorm'), sessions, { api });
  const finished = exporter.getFinishedSpans();
  const request = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(finished)!)) as Request;
  await provider.shutdown();
  return { result, finished, spans: spansOf([request]) };
}

const available = corpusAvailable();
const RECORDINGS = [
  { provider: 'claude', path: join(CORPUS, 'claude/public/ccviewer-v1.0.108-multiedit-task.jsonl'), children: 8 },
  { provider: 'claude', path: join(CORPUS, 'claude/captured/sdk-query-2.1.332.jsonl'), children: 2 },
  // The corpus holds no Codex subagent session; this is the repository's app-server fixture of one.
  { provider: 'codex', path: fixturePath('codex/appserver-subagent', 'appserver-subagent.jsonl'), children: -1 },
  // Two sessions: the child session hangs under the parent's task call.
  { provider: 'opencode', path: join(CORPUS, 'opencode/captured/run1/events.sse'), children: -1 },
];

describe.skipIf(!available)('OpenTelemetry spans of subagent recordings', () => {
  it.each(RECORDINGS)('$provider $path: --to otel spans match the parts', async ({ provider, path, children }) => {
    const c = load(path);
    expect(c.parts.length).toBeGreaterThan(0);
    expect(c.parts.some((p) => p.kind === 'subagent')).toBe(true);
    const { lines, diagnostics } = await normalizeWithDiagnostics('otel', path);
    const spans = spansOf(lines);
    const r = checkSpans(spans, c.sessions);
    if (children >= 0) expect(r.children).toBe(children);
    expect(spans.every((s) => attr(s, 'toolnorm.provider') === provider)).toBe(true);
    // gen_ai.provider.name: the agent's vendor; OpenCode's only where the recording names the model's
    // provider (its task call names the child session's model, here the capture's scripted "mock").
    for (const s of spans.filter((x) => attr(x, 'gen_ai.operation.name') === 'invoke_agent')) {
      const expected = provider === 'claude' ? 'anthropic' : provider === 'codex' ? 'openai' : s.parentSpanId !== undefined ? 'mock' : undefined;
      expect(attr(s, 'gen_ai.provider.name'), s.name).toBe(expected);
    }
    expect(spans.filter((x) => attr(x, 'gen_ai.provider.name') !== undefined).length).toBeGreaterThan(0);
    // Parts without times are reported, one diagnostic each, not given invented ones.
    const untimed = c.parts.filter((p) => !timed(p)).map((p) => p.id).sort();
    expect(diagnostics.filter((d) => d.code === 'otel_untimed_part').map((d) => d.partId).sort()).toEqual(untimed);

    // The same through the OTel SDK: same checks, and its own serializer gives the CLI's spans.
    const sdk = await throughSdk(c.sessions);
    expect(sdk.result.skipped.map((s) => s.partId).sort()).toEqual(untimed);
    expect(sdk.finished.length).toBe(spans.length);
    checkSpans(sdk.spans, c.sessions);
    expect(canonical(spans)).toEqual(canonical(sdk.spans));
  });

  it('a subagent session joins its parent call\'s trace (opencode, two sessions)', async () => {
    const path = join(CORPUS, 'opencode/captured/run1/events.sse');
    const c = load(path);
    expect(c.sessions.size).toBe(2);
    const spans = spansOf((await normalizeWithDiagnostics('otel', path)).lines);
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    const sessionSpans = spans.filter((s) => attr(s, 'gen_ai.operation.name') === 'invoke_agent');
    const child = sessionSpans.find((s) => s.parentSpanId !== undefined)!;
    expect(child).toBeDefined();
    const parentCall = spans.find((s) => s.spanId === child.parentSpanId)!;
    expect(attr(parentCall, 'toolnorm.tool.kind')).toBe('subagent');
  });

  it('--otel-content adds the opt-in arguments and results', async () => {
    const path = join(CORPUS, 'claude/captured/sdk-query-2.1.332.jsonl');
    const c = load(path);
    const spans = spansOf((await normalizeWithDiagnostics('otel', path, ['--otel-content'])).lines).filter((s) => attr(s, 'gen_ai.operation.name') === 'execute_tool');
    for (const s of spans) {
      const p = c.parts.find((x) => x.id === attr(s, 'gen_ai.tool.call.id'))!;
      expect(JSON.parse(attr(s, 'gen_ai.tool.call.arguments') as string)).toEqual(p.input);
      if (p.state === 'complete' && p.output !== undefined) expect(typeof attr(s, 'gen_ai.tool.call.result')).toBe('string');
    }
  });

  it('a recording without times (Codex exec JSONL) gives no spans, and says so for each part', async () => {
    const path = join(CORPUS, 'codex/captured/exec_tools_plan.jsonl');
    const c = load(path);
    expect(c.parts.length).toBeGreaterThan(0);
    const { lines, diagnostics } = await normalizeWithDiagnostics('otel', path);
    expect(spansOf(lines)).toEqual([]);
    expect(diagnostics.filter((d) => d.code === 'otel_untimed_part').map((d) => d.partId).sort()).toEqual(c.parts.map((p) => p.id).sort());
    const sdk = await throughSdk(c.sessions);
    expect(sdk.finished).toEqual([]);
    expect(sdk.result.skipped.every((s) => s.reason === 'no_start_time')).toBe(true);
  });
});
