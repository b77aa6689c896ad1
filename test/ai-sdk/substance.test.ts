// AI SDK parts and chunks of typed substance (test/helpers/substance.ts: hand-built events through
// the real reducer and pipeline). Approval states come from metadata.approval alone, every part
// passes `ai`'s validateUIMessages, and the streamed message read back by `ai` validates too.
import { describe, expect, it } from 'vitest';
import { readUIMessageStream, safeValidateUIMessages, type UIMessage, type UIMessageChunk } from 'ai';
import { aiSdkStreamEncoder, toAiSdkPart } from '../../src/ai-sdk/index.js';
import type { NormalizedToolPart } from '../../src/contract/index.js';
import { encodeEvents } from '../helpers/encode.js';
import { SUBSTANCE, substanceParts } from '../helpers/substance.js';

type Part = Record<string, unknown> & { toolCallId: string; state: string };
type Chunk = { type: string; toolCallId?: string; approvalId?: string };
const validate = async (parts: unknown[]) => {
  const r = await safeValidateUIMessages({ messages: [{ id: 'm', role: 'assistant', parts }] as never });
  expect(r.success, r.success ? '' : String(r.error)).toBe(true);
};
const readBack = async (chunks: unknown[]): Promise<UIMessage> => {
  const stream = new ReadableStream<UIMessageChunk>({ start(c) { for (const x of chunks) c.enqueue(x as UIMessageChunk); c.close(); } });
  let last: UIMessage | undefined;
  for await (const m of readUIMessageStream({ stream, terminateOnError: true })) last = JSON.parse(JSON.stringify(m)) as UIMessage;
  return last!;
};

describe('AI SDK approvals from metadata.approval', () => {
  const parts = substanceParts();
  const ai = parts.map((p) => toAiSdkPart(p, { sessionId: 's1' })) as unknown as Part[];
  const by = Object.fromEntries(ai.map((p) => [p.toolCallId, p]));

  it('waiting is approval-requested, granted and done carries approved true, refused is output-denied with the reason', async () => {
    expect(by.a1).toMatchObject({ state: 'approval-requested', approval: { id: 'a1' } });
    expect(by.a3).toMatchObject({ state: 'output-available', approval: { id: 'a3', approved: true } });
    expect(by.a2).toMatchObject({ state: 'output-denied', approval: { id: 'a2', approved: false, reason: 'not that file' } });
    for (const id of ['e1', 'b1', 't1']) expect(by[id]!.approval, id).toBeUndefined();
    await validate(ai);
  });

  it('answered but not ended is approval-responded, and expired shows the call as it stands', async () => {
    const a1 = parts.find((p) => p.id === 'a1')!;
    const answered = (state: 'approved' | 'denied'): NormalizedToolPart => ({ ...a1, state: 'running', metadata: { ...a1.metadata, approval: { state, source: 'user', ...(state === 'denied' ? { reason: 'no' } : {}) } } });
    expect(toAiSdkPart(answered('approved'))).toMatchObject({ state: 'approval-responded', approval: { id: 'a1', approved: true } });
    expect(toAiSdkPart(answered('denied'))).toMatchObject({ state: 'approval-responded', approval: { id: 'a1', approved: false, reason: 'no' } });
    const expired = toAiSdkPart({ ...a1, metadata: { approval: { state: 'expired', source: 'user' } } });
    expect(expired.state).toBe('input-streaming');
    await validate([toAiSdkPart(answered('approved')), toAiSdkPart(answered('denied')), expired]);
  });

  it('control: the provider\'s input alone (an approval-ish key, a denial word) makes no approval state', () => {
    const a1 = parts.find((p) => p.id === 'a1')!;
    const raw = toAiSdkPart({ ...a1, input: { approval: 'pending', requiresApproval: true }, metadata: {} });
    expect(raw.state).toBe('input-streaming');
    expect('approval' in raw).toBe(false);
  });

  it('the metadata rides along whole: files, command, search and plan are in callProviderMetadata.toolnorm', () => {
    const meta = (id: string) => (by[id]!.callProviderMetadata as { toolnorm: { metadata: Record<string, unknown> } }).toolnorm.metadata;
    expect(meta('e1').files).toEqual(parts.find((p) => p.id === 'e1')!.metadata!.files);
    expect(meta('b1').command).toMatchObject({ command: 'cat README.md', exitCode: 0 });
    expect(meta('g1').search).toMatchObject({ pattern: '**/*.ts' });
    expect(meta('t1').plan).toMatchObject({ entries: [{ content: 'Read the code' }, {}, {}] });
  });
});

describe('AI SDK stream of approvals', () => {
  it('AI SDK 7: the request when the call waits, the answer when it comes, then the outcome', () => {
    const chunks = encodeEvents(SUBSTANCE, aiSdkStreamEncoder({ version: 7 })) as Chunk[];
    const of = (id: string) => chunks.filter((c) => c.toolCallId === id || c.approvalId === id).map((c) => c.type);
    expect(of('a1')).toEqual(['tool-input-start', 'tool-input-available', 'tool-approval-request']);
    expect(of('a3')).toEqual(['tool-input-start', 'tool-input-available', 'tool-approval-request', 'tool-approval-response', 'tool-input-available', 'tool-output-available']);
    expect(of('a2')).toEqual(['tool-input-start', 'tool-input-available', 'tool-approval-request', 'tool-approval-response', 'tool-input-available', 'tool-output-denied']);
    expect(chunks.find((c) => c.type === 'tool-approval-response' && c.approvalId === 'a3')).toEqual({ type: 'tool-approval-response', approvalId: 'a3', approved: true });
    expect(chunks.find((c) => c.type === 'tool-approval-response' && c.approvalId === 'a2')).toEqual({ type: 'tool-approval-response', approvalId: 'a2', approved: false, reason: 'not that file' });
  });

  it('AI SDK 6: only a call still waiting at the end is streamed as a request; the read-back message validates', async () => {
    const chunks = encodeEvents(SUBSTANCE, aiSdkStreamEncoder()) as Chunk[];
    expect(chunks.filter((c) => c.type === 'tool-approval-request').map((c) => c.toolCallId)).toEqual(['a1']);
    expect(chunks.some((c) => c.type === 'tool-approval-response')).toBe(false);
    const last = await readBack(chunks);
    await validate(last.parts);
    expect(last.parts.find((p) => (p as Part).toolCallId === 'a1')).toMatchObject({ state: 'approval-requested', approval: { id: 'a1' } });
    // Control: streaming the request of a call that then ended (what AI SDK 7 does) leaves an
    // AI SDK 6 client with an approval it never sees answered, which its validator refuses.
    const v7 = encodeEvents(SUBSTANCE, aiSdkStreamEncoder({ version: 7 })) as Chunk[];
    const mixed = v7.filter((c) => c.type !== 'tool-approval-response' && c.type !== 'tool-output-denied');
    const r = await safeValidateUIMessages({ messages: [await readBack(mixed)] as never });
    expect(r.success).toBe(false);
  });
});
