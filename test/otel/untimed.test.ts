// What a part without recorded times becomes: no span, a diagnostic naming it and why. Never a
// time toolnorm made up.
import { describe, expect, it } from 'vitest';
import * as api from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { cli } from '../helpers/cli.js';
import { LIFECYCLES, LIFECYCLES_NDJSON } from '../helpers/lifecycles.js';
import { epochMs, recordToolSpans, toolSpanOf, unixNano } from '../../src/otel/index.js';
import type { NormalizedToolPart } from '../../src/contract/index.js';

const base: NormalizedToolPart = { id: 'x', name: 'Bash', kind: 'bash', title: 'Running ls', input: { command: 'ls' }, state: 'complete', timing: { startedAt: 1000, completedAt: 1500 } };

describe('OTel spans and times', () => {
  it('takes times only from the recording', () => {
    expect(epochMs(0)).toBeUndefined();
    expect(epochMs(undefined)).toBeUndefined();
    expect(epochMs('not a date')).toBeUndefined();
    expect(epochMs('2026-12-01T00:00:00.000Z')).toBe(Date.UTC(2026, 11, 1));
    expect(toolSpanOf({ ...base, timing: undefined }, 's')).toBe('no_start_time');
    expect(toolSpanOf({ ...base, timing: { startedAt: 0, completedAt: 0 } }, 's')).toBe('no_start_time');
    expect(toolSpanOf({ ...base, state: 'running' }, 's')).toBe('open');
    expect(toolSpanOf({ ...base, timing: { startedAt: 1000 } }, 's')).toBe('no_end_time');
    expect(toolSpanOf({ ...base, timing: { startedAt: 2000, completedAt: 1000 } }, 's')).toBe('end_before_start');
    const failed = toolSpanOf({ ...base, state: 'error', error: { message: 'boom' } }, 's');
    expect(failed).toMatchObject({ status: { code: 2, message: 'boom' }, attributes: { 'error.type': '_OTHER', 'toolnorm.tool.state': 'error' } });
    expect(toolSpanOf({ ...base, kind: 'mcp' }, 's')).toMatchObject({ attributes: { 'gen_ai.tool.type': 'extension' } });
    expect(unixNano(1757238729443.5)).toBe('1757238729443500000');
  });

  it('the CLI reports each open call instead of ending it at a made-up time', async () => {
    const r = await cli(['normalize', '--from', 'events', '--to', 'otel', '-'], { stdin: LIFECYCLES_NDJSON });
    expect(r.code).toBe(0);
    const spans = (r.lines as { resourceSpans: { scopeSpans: { spans: { name: string; attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[] }[]).flatMap((x) => x.resourceSpans[0]!.scopeSpans[0]!.spans);
    const ids = spans.map((s) => s.attributes.find((a) => a.key === 'gen_ai.tool.call.id')?.value.stringValue).filter(Boolean).sort();
    expect(ids).toEqual(['c1', 'p1', 'p2', 'p3', 't1']);
    const diagnostics = r.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { code: string; partId: string; message: string });
    expect(diagnostics.map((d) => `${d.code}:${d.partId}`)).toEqual(['otel_untimed_part:p4', 'otel_untimed_part:p5']);
    expect(diagnostics[0]!.message).toMatch(/still open at the end of the input/);
  });

  it('recordToolSpans skips the same parts and hangs the rest under the session span', async () => {
    const sessions = new Map<string, NormalizedToolPart[]>();
    const { collect } = await import('../../src/pipeline/collect.js');
    const { eventsAdapter } = await import('../../src/adapters/events/index.js');
    for (const [k, v] of collect(eventsAdapter, LIFECYCLES.map((e) => JSON.stringify(e)).join('\n')).sessions) sessions.set(k, v);
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const result = await recordToolSpans(provider.getTracer('t'), sessions, { api });
    expect(result).toMatchObject({ toolSpans: 5, sessionSpans: 1 });
    expect(result.skipped.map((s) => `${s.partId}:${s.reason}`)).toEqual(['p4:open', 'p5:open']);
    const spans = exporter.getFinishedSpans();
    const session = spans.find((s) => s.name === 'invoke_agent claude')!;
    expect(session.startTime).toEqual([1, 0]);
    expect(session.endTime).toEqual([2, 300000000]);
    const child = spans.find((s) => s.attributes['gen_ai.tool.call.id'] === 'c1')!;
    const task = spans.find((s) => s.attributes['gen_ai.tool.call.id'] === 't1')!;
    expect(child.parentSpanContext?.spanId).toBe(task.spanContext().spanId);
    expect(task.parentSpanContext?.spanId).toBe(session.spanContext().spanId);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    await provider.shutdown();
  });
});
