// The AI SDK mapping on hand-written lifecycles: the state table, `output: null`, denial with its
// approval fields, errors, open calls, streamed input, and late enrichment re-sent on the stream.
import { describe, expect, it } from 'vitest';
import { readUIMessageStream, safeValidateUIMessages, type UIMessage, type UIMessageChunk } from 'ai';
import { cli } from '../helpers/cli.js';
import { LIFECYCLES_NDJSON } from '../helpers/lifecycles.js';
import { toAiSdkPart, aiSdkChunksOf, aiSdkStreamEncoder } from '../../src/ai-sdk/index.js';
import { encodeEvents } from '../helpers/encode.js';
import { LIFECYCLES } from '../helpers/lifecycles.js';
import type { NormalizedToolPart } from '../../src/contract/index.js';

type Part = Record<string, unknown> & { toolCallId: string; state: string };
const run = async (to: string, extra: string[] = []) => {
  const r = await cli(['normalize', '--from', 'events', '--to', to, ...extra, '-'], { stdin: LIFECYCLES_NDJSON });
  expect(r.code, r.stderr).toBe(0);
  return r.lines;
};
const snapshots = async (chunks: unknown[]): Promise<UIMessage[]> => {
  const stream = new ReadableStream<UIMessageChunk>({ start(c) { for (const x of chunks) c.enqueue(x as UIMessageChunk); c.close(); } });
  const out: UIMessage[] = [];
  for await (const m of readUIMessageStream({ stream, terminateOnError: true })) out.push(JSON.parse(JSON.stringify(m)) as UIMessage);
  return out;
};

describe('AI SDK mapping of each lifecycle', () => {
  it('maps states, outputs, errors and denials to what validateUIMessages accepts', async () => {
    const parts = (await run('ai-sdk')) as Part[];
    const byId = Object.fromEntries(parts.map((p) => [p.toolCallId, p]));
    expect(Object.fromEntries(parts.map((p) => [p.toolCallId, p.state]))).toEqual({
      p1: 'output-available', p2: 'output-denied', p3: 'output-error', c1: 'output-available', t1: 'output-available', p4: 'input-streaming', p5: 'input-available',
    });
    expect(byId.p1).toMatchObject({ type: 'dynamic-tool', toolName: 'Bash', title: 'Listing files', input: { command: 'ls' }, output: null });
    // The part's title is the AI SDK's own `title` field on every part.
    for (const p of parts) expect(typeof p.title, p.toolCallId).toBe('string');
    expect('output' in byId.p1!).toBe(true);
    expect(byId.p2).toMatchObject({ input: { path: 'a.txt' }, approval: { id: 'p2', approved: false, reason: 'The user denied the write' } });
    expect(byId.p3).toMatchObject({ errorText: 'no such file' });
    expect(byId.p3!.callProviderMetadata).toEqual({ toolnorm: { name: 'Read', kind: 'file_read', title: 'Reading b.txt', sessionId: 's1', timing: { startedAt: 1800, completedAt: 1900, elapsedMs: 100 }, metadata: { provider: 'claude', exitCode: 1 } } });
    expect((byId.c1!.callProviderMetadata as { toolnorm: { metadata: unknown } }).toolnorm.metadata).toEqual({ provider: 'claude', parentId: 't1' });
    const r = await safeValidateUIMessages({ messages: [{ id: 'm', role: 'assistant', parts }] });
    expect(r.success).toBe(true);
  });

  it('the stream shows each call as it goes, and ends with the same parts', async () => {
    const chunks = (await run('ai-sdk-stream')) as { type: string; toolCallId?: string }[];
    const p1 = chunks.filter((c) => c.toolCallId === 'p1').map((c) => c.type);
    expect(p1).toEqual(['tool-input-start', 'tool-input-delta', 'tool-input-delta', 'tool-input-available', 'tool-input-available', 'tool-output-available']);
    // A denial, for AI SDK 6 (the default): its stream has no chunk for the answer, so the outcome is the error.
    expect(chunks.filter((c) => c.toolCallId === 'p2').map((c) => c.type)).toEqual(['tool-input-start', 'tool-input-available', 'tool-output-error']);
    expect(chunks.find((c) => c.toolCallId === 'p2' && c.type === 'tool-input-start')).toMatchObject({ title: 'Writing a.txt' });
    // p3's exit code came after its outcome: the outcome is sent again with it.
    expect(chunks.filter((c) => c.toolCallId === 'p3').map((c) => c.type)).toEqual(['tool-input-start', 'tool-input-available', 'tool-output-error', 'tool-input-available', 'tool-output-error']);
    const all = await snapshots(chunks);
    // What an app storing useChat messages does: validate the rebuilt message again.
    const again = await safeValidateUIMessages({ messages: [all.at(-1)!] });
    expect(again.success, again.success ? '' : String(again.error)).toBe(true);
    // While its input streamed, p1 was input-streaming with the partial input parsed.
    const during = all.map((m) => m.parts.find((p) => (p as Part).toolCallId === 'p1') as Part | undefined).filter(Boolean);
    expect(during[0]).toMatchObject({ state: 'input-streaming' });
    expect(during.some((p) => p!.state === 'input-streaming' && (p!.input as { command?: string } | undefined)?.command === 'ls')).toBe(true);
    expect(during.some((p) => p!.state === 'input-available')).toBe(true);
    const last = all.at(-1)!.parts as Part[];
    const parts = (await run('ai-sdk')) as Part[];
    for (const p of parts) {
      const got = last.find((x) => x.toolCallId === p.toolCallId)!;
      if (p.state === 'output-denied') {
        const { approval, ...rest } = p as Part & { approval: { reason: string } };
        expect(got).toEqual({ ...rest, state: 'output-error', errorText: approval.reason });
      }
      // A call still open at the end streamed its input as deltas only when it had some.
      else if (p.state === 'input-streaming') expect({ ...got, input: p.input }).toEqual(p);
      else expect(got).toEqual(p);
    }
  });

  it('static parts are typed tool-<name>, without toolName', async () => {
    const parts = (await run('ai-sdk', ['--ai-sdk-parts', 'static'])) as Part[];
    expect(parts.map((p) => p.type)).toContain('tool-Bash');
    for (const p of parts) expect('toolName' in p).toBe(false);
    expect((await safeValidateUIMessages({ messages: [{ id: 'm', role: 'assistant', parts }] })).success).toBe(true);
    expect((await cli(['normalize', '--from', 'events', '--to', 'ai-sdk', '--ai-sdk-parts', 'bogus', '-'], { stdin: LIFECYCLES_NDJSON })).code).toBe(2);
  });

  it('the library functions give the CLI\'s parts and a stream of finished parts', async () => {
    const part: NormalizedToolPart = { id: 'x', name: 'Read', kind: 'file_read', title: 'Reading x', input: { path: 'x' }, state: 'complete', output: 'text' };
    expect(toAiSdkPart(part)).toEqual({ type: 'dynamic-tool', toolName: 'Read', toolCallId: 'x', title: 'Reading x', state: 'output-available', input: { path: 'x' }, output: 'text', callProviderMetadata: { toolnorm: { name: 'Read', kind: 'file_read', title: 'Reading x' } } });
    // An empty title (the schema allows one) sets no field.
    expect('title' in toAiSdkPart({ ...part, title: '' })).toBe(false);
    const chunks = aiSdkChunksOf([['s', [part]]]);
    expect(chunks.map((c) => c.type)).toEqual(['start', 'tool-input-start', 'tool-input-available', 'tool-output-available', 'finish']);
    const last = (await snapshots(chunks)).at(-1)!;
    expect(last.parts).toEqual([toAiSdkPart(part, { sessionId: 's' })]);
  });

  it('version 7 sends the answer to the approval request: the denial rebuilds with approved false and the reason', () => {
    const chunks = encodeEvents(LIFECYCLES, aiSdkStreamEncoder({ version: 7 })) as { type: string; toolCallId?: string; approvalId?: string }[];
    const i = chunks.findIndex((c) => c.type === 'tool-approval-request');
    expect(chunks.slice(i, i + 3)).toEqual([
      { type: 'tool-approval-request', approvalId: 'p2', toolCallId: 'p2' },
      { type: 'tool-approval-response', approvalId: 'p2', approved: false, reason: 'The user denied the write' },
      { type: 'tool-output-denied', toolCallId: 'p2' },
    ]);
    // Everything else is the default stream's.
    const v6 = encodeEvents(LIFECYCLES, aiSdkStreamEncoder()) as { type: string; toolCallId?: string }[];
    expect(chunks.filter((c) => c.toolCallId !== 'p2' && c.approvalId !== 'p2')).toEqual(v6.filter((c) => c.toolCallId !== 'p2'));
  });
});
