// Every corpus recording and every golden fixture through `--to ag-ui`: each event passes
// @ag-ui/core's own schemas, the WHOLE output passes @ag-ui/client's verifier (one run at a time,
// whatever the number of sessions), each run holds only its own session's calls, and each thread's
// runs replayed into an @ag-ui/client agent leave it the messages an app renders: one tool message
// per finished call, its content the result, and `error` set exactly on the failed ones.
import { describe, expect, it } from 'vitest';
import { EventSchemas } from '@ag-ui/core/schemas';
import { verifyEvents, type BaseEvent, type Message } from '@ag-ui/client';
import { from, lastValueFrom, toArray } from 'rxjs';
import { corpusInputs, corpusPath, normalizeTo } from '../helpers/ecosystem.js';
import { clientMessages, threadsOf } from '../helpers/ag-ui-client.js';
import { encodeEvents, encodeInputs } from '../helpers/encode.js';
import { inputsOf, listedCases, readCase, readManifest } from '../helpers/golden-cases.js';
import { adapterById } from '../../src/adapters/registry.js';
import { agUiEncoder } from '../../src/ag-ui/index.js';
import type { NormalizedToolPart, ToolEvent } from '../../src/contract/index.js';

const files = corpusInputs();
type Ev = Record<string, unknown> & { type: string; threadId?: string; runId?: string; toolCallId?: string; content?: unknown };
type ToolMessage = Message & { role: 'tool'; toolCallId: string; content: unknown; error?: string };

const verify = (events: unknown[]) => lastValueFrom(from(events as BaseEvent[]).pipe(verifyEvents(false), toArray()));

const stats = { outputs: 0, multiThread: 0, resumedRuns: 0, failed: 0, contentParts: 0, seen: new Set<string>() };

/** Everything a valid output must be, checked against the parts and the session of each part. */
async function check(what: string, events: Ev[], parts: NormalizedToolPart[], sessionOf: Map<string, string>): Promise<void> {
  stats.outputs++;
  for (const e of events) {
    const r = EventSchemas.safeParse(e);
    expect(r.success, `${what} ${JSON.stringify(e).slice(0, 200)}: ${r.success ? '' : r.error.message.slice(0, 300)}`).toBe(true);
    stats.seen.add(e.type);
  }
  expect(new Set(events.filter((e) => e.type === 'TOOL_CALL_START').map((e) => e.toolCallId)).size, `${what}: one call per part`).toBe(parts.length);
  const finished = parts.filter((p) => p.state === 'complete' || p.state === 'error');
  expect(events.filter((e) => e.type === 'TOOL_CALL_RESULT').length).toBe(finished.length);
  if (!parts.length) return;
  // The whole output, as one stream: AG-UI's verifier accepts it.
  expect((await verify(events)).length, what).toBe(events.length);

  const threads = threadsOf(events);
  if (threads.size > 1) stats.multiThread++;
  const runIds = events.filter((e) => e.type === 'RUN_STARTED').map((e) => e.runId);
  expect(new Set(runIds).size, `${what}: run ids are unique`).toBe(runIds.length);
  stats.resumedRuns += runIds.length - threads.size;
  const byId = new Map(parts.map((p) => [p.id, p]));
  for (const [threadId, run] of threads) {
    // A run holds only calls of its own session.
    for (const e of run as Ev[]) if (e.toolCallId !== undefined) expect(sessionOf.get(e.toolCallId), `${what}: ${e.type} ${e.toolCallId} in ${threadId}`).toBe(threadId);
    // What an AG-UI client builds from this thread's runs.
    const messages = await clientMessages(run, threadId);
    const tools = messages.filter((m): m is ToolMessage => m.role === 'tool');
    const own = finished.filter((p) => sessionOf.get(p.id) === threadId);
    expect(tools.map((m) => m.toolCallId).sort(), `${what} ${threadId}: one tool message per finished call`).toEqual(own.map((p) => p.id).sort());
    for (const m of tools) {
      const part = byId.get(m.toolCallId)!;
      const result = (run as Ev[]).find((e) => e.type === 'TOOL_CALL_RESULT' && e.toolCallId === part.id)!;
      expect(m.content).toEqual(result.content);
      if (Array.isArray(m.content)) stats.contentParts++;
      if (part.state === 'error') {
        stats.failed++;
        expect(m.error, `${what} ${part.id}: ToolMessage.error`).toBe(part.error.message);
        expect(m.content).toBe(part.error.message);
      } else expect(m.error, `${what} ${part.id}`).toBeUndefined();
    }
  }
}

/** The session of each part, from the recording's events. */
const sessionsOf = (events: ToolEvent[]): Map<string, string> => new Map(events.map((e) => [e.partId, e.sessionId]));

describe.skipIf(!files.length)('AG-UI 1.0 on every corpus recording', () => {
  it.each(files)('%s: schemas, the verifier on the whole output, runs per session, the client\'s messages', async (rel) => {
    const events = (await normalizeTo('ag-ui', corpusPath(rel))) as Ev[];
    const parts = (await normalizeTo('parts', corpusPath(rel))) as NormalizedToolPart[];
    const toolEvents = (await normalizeTo('events', corpusPath(rel))) as ToolEvent[];
    await check(rel, events, parts, sessionsOf(toolEvents));
    if (!parts.some((p) => p.state === 'error')) return;
    // The restating snapshot is exact: without it (toolMessageErrors: false) the client holds the
    // same messages, only without `error`.
    const plain = encodeEvents(toolEvents, agUiEncoder({ toolMessageErrors: false })) as Ev[];
    expect(plain.some((e) => e.type === 'MESSAGES_SNAPSHOT')).toBe(false);
    for (const [threadId, run] of threadsOf(events)) {
      const withErrors = await clientMessages(run, threadId);
      const without = await clientMessages(threadsOf(plain).get(threadId)!, threadId);
      expect(without.some((m) => 'error' in m)).toBe(false);
      expect(withErrors.map((m) => { const { error: _e, ...rest } = m as ToolMessage; return rest; })).toEqual(without);
    }
  });

  it('the verifier is not vacuous: the same output with one TOOL_CALL_END dropped is refused', async () => {
    const rel = files.find((f) => f.includes('ccviewer'))!;
    const events = (await normalizeTo('ag-ui', corpusPath(rel))) as Ev[];
    const first = events.findIndex((x) => x.type === 'TOOL_CALL_END');
    const broken = events.filter((_, i) => i !== first);
    await expect(verify(broken)).rejects.toThrow(/tool calls are still active/);
  });
});

describe('AG-UI 1.0 on every golden fixture', () => {
  const cases = listedCases(readManifest()).map((id) => readCase(id)).flatMap((c) => c.goldens.map((g) => ({ c, g })));
  it.each(cases.map(({ c, g }) => [`${c.id}/${g.name}`, c, g] as const))('%s', async (_name, c, g) => {
    const adapter = adapterById(c.from)!;
    const inputs = inputsOf(c, g);
    const events = encodeInputs(adapter, inputs, g.options ?? {}, agUiEncoder()) as Ev[];
    const parts = encodeInputs(adapter, inputs, g.options ?? {}, 'parts') as NormalizedToolPart[];
    const toolEvents = encodeInputs(adapter, inputs, g.options ?? {}, 'events') as ToolEvent[];
    await check(`${c.id}/${g.name}`, events, parts, sessionsOf(toolEvents));
  });
});

describe('AG-UI coverage', () => {
  it('the corpus and fixtures had several sessions in one input, runs resumed, failures and content parts', () => {
    expect(stats.outputs).toBeGreaterThan(30);
    expect(stats.multiThread).toBeGreaterThan(0);
    // Sessions interleaved: a thread's later runs.
    expect(stats.resumedRuns).toBeGreaterThan(0);
    expect(stats.failed).toBeGreaterThan(0);
    expect(stats.contentParts).toBeGreaterThan(0);
    for (const t of ['RUN_STARTED', 'RUN_FINISHED', 'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT', 'MESSAGES_SNAPSHOT', 'SUBAGENT_STARTED', 'SUBAGENT_FINISHED']) expect(stats.seen, t).toContain(t);
  });
});
