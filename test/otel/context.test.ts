// recordToolSpans in the caller's context, with a real OpenTelemetry SDK (BasicTracerProvider +
// InMemorySpanExporter): the sessions' spans are children of the app's span, whether it is passed
// as `parentContext` or active in the default context; and gen_ai.provider.name on session spans.
import { afterEach, describe, expect, it } from 'vitest';
import * as api from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
// The context manager of sdk-trace-base's own package (the synchronous stack one, as browsers use):
// the async-hooks manager of a Node app is not installed here, and recordToolSpans reads the active
// context before its first await, so the stack manager shows the same thing.
import { StackContextManager } from '@opentelemetry/sdk-trace';
import { eventsAdapter } from '../../src/adapters/events/index.js';
import { collect } from '../../src/pipeline/collect.js';
import { genAiProviderName, recordToolSpans } from '../../src/otel/index.js';
import { LIFECYCLES_NDJSON } from '../helpers/lifecycles.js';

const sessions = () => collect(eventsAdapter, LIFECYCLES_NDJSON).sessions;

function sdk() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, provider, tracer: provider.getTracer('app') };
}

const attr = (s: ReadableSpan, k: string) => s.attributes[k];
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;

/** The recorded spans hang under `app`: session spans directly, tool spans below them, one trace. */
function expectUnder(spans: ReadableSpan[], app: api.Span) {
  const recorded = spans.filter((s) => s.name !== 'GET /replay');
  expect(recorded.length).toBeGreaterThan(3);
  const sessionSpans = recorded.filter((s) => attr(s, 'gen_ai.operation.name') === 'invoke_agent');
  expect(sessionSpans.length).toBe(1);
  for (const s of sessionSpans) expect(parentOf(s)).toBe(app.spanContext().spanId);
  const ids = new Set(recorded.map((s) => s.spanContext().spanId));
  for (const s of recorded.filter((x) => attr(x, 'gen_ai.operation.name') === 'execute_tool')) expect(ids.has(parentOf(s)!), s.name).toBe(true);
  for (const s of recorded) expect(s.spanContext().traceId).toBe(app.spanContext().traceId);
}

describe('recordToolSpans in the caller\'s context', () => {
  afterEach(() => {
    api.context.disable();
  });

  it('parentContext: the spans nest under the app\'s request span', async () => {
    const { exporter, provider, tracer } = sdk();
    const app = tracer.startSpan('GET /replay');
    await recordToolSpans(tracer, sessions(), { api, parentContext: api.trace.setSpan(api.ROOT_CONTEXT, app) });
    app.end();
    expectUnder(exporter.getFinishedSpans(), app);
    await provider.shutdown();
  });

  it('by default, under the span active in the current context', async () => {
    api.context.setGlobalContextManager(new StackContextManager().enable());
    const { exporter, provider, tracer } = sdk();
    const app = tracer.startSpan('GET /replay');
    await api.context.with(api.trace.setSpan(api.context.active(), app), () => recordToolSpans(tracer, sessions(), { api }));
    app.end();
    expectUnder(exporter.getFinishedSpans(), app);
    await provider.shutdown();
  });

  it('control: with no span active, the session span is a root of its own trace', async () => {
    api.context.setGlobalContextManager(new StackContextManager().enable());
    const { exporter, provider, tracer } = sdk();
    const app = tracer.startSpan('GET /replay');
    app.end();
    await recordToolSpans(tracer, sessions(), { api });
    const session = exporter.getFinishedSpans().find((s) => attr(s, 'gen_ai.operation.name') === 'invoke_agent')!;
    expect(parentOf(session)).toBeUndefined();
    expect(session.spanContext().traceId).not.toBe(app.spanContext().traceId);
    await provider.shutdown();
  });

  it('session spans name the GenAI provider', async () => {
    const { exporter, provider, tracer } = sdk();
    await recordToolSpans(tracer, sessions(), { api });
    const session = exporter.getFinishedSpans().find((s) => attr(s, 'gen_ai.operation.name') === 'invoke_agent')!;
    // The lifecycle events are Claude's.
    expect(attr(session, 'gen_ai.provider.name')).toBe('anthropic');
    await provider.shutdown();
  });
});

describe('gen_ai.provider.name', () => {
  it('maps each agent to its vendor, and OpenCode to the model provider the recording names', () => {
    expect(genAiProviderName('claude')).toBe('anthropic');
    expect(genAiProviderName('codex')).toBe('openai');
    expect(genAiProviderName('opencode', 'google')).toBe('gcp.gemini');
    expect(genAiProviderName('opencode', 'amazon-bedrock')).toBe('aws.bedrock');
    expect(genAiProviderName('opencode', 'anthropic')).toBe('anthropic');
    // An id the conventions have no value for is written as the recording gives it.
    expect(genAiProviderName('opencode', 'mock')).toBe('mock');
    // Nothing known: no attribute rather than a guess.
    expect(genAiProviderName('opencode')).toBeUndefined();
    expect(genAiProviderName('acp')).toBeUndefined();
    expect(genAiProviderName('executor')).toBeUndefined();
  });
});
