// Every corpus recording through `--to ai-sdk` and `--to ai-sdk-stream`, checked by the AI SDK 6's
// own validators (validateUIMessages, uiMessageChunkSchema), and the stream read back by its own
// consumer (readUIMessageStream) into the same parts.
import { describe, expect, it } from 'vitest';
import { readUIMessageStream, safeValidateUIMessages, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from 'ai';
import { safeValidateTypes } from '@ai-sdk/provider-utils';
import { corpusInputs, corpusPath, normalizeTo } from '../helpers/ecosystem.js';

const files = corpusInputs();
type Part = Record<string, unknown> & { type: string; toolCallId: string; state: string };

/**
 * The keys each chunk type may carry, from `UIMessageChunk` in node_modules/ai/dist/index.d.ts.
 * The chunk schema lets unknown keys through, so this is what keeps toolnorm from adding any.
 */
const CHUNK_KEYS: Record<string, string[]> = {
  start: ['type', 'messageId', 'messageMetadata'],
  finish: ['type', 'finishReason', 'messageMetadata'],
  'tool-input-start': ['type', 'toolCallId', 'toolName', 'inputEncoding', 'providerExecuted', 'providerMetadata', 'toolMetadata', 'dynamic', 'title'],
  'tool-input-delta': ['type', 'toolCallId', 'inputTextDelta'],
  'tool-input-available': ['type', 'toolCallId', 'toolName', 'input', 'providerExecuted', 'providerMetadata', 'toolMetadata', 'dynamic', 'title'],
  'tool-output-available': ['type', 'toolCallId', 'output', 'providerExecuted', 'providerMetadata', 'toolMetadata', 'dynamic', 'preliminary'],
  'tool-output-error': ['type', 'toolCallId', 'errorText', 'providerExecuted', 'providerMetadata', 'toolMetadata', 'dynamic'],
  'tool-approval-request': ['type', 'approvalId', 'toolCallId', 'approvalDescriptor', 'inputSchemaInput', 'signature'],
  'tool-output-denied': ['type', 'toolCallId'],
};

async function validParts(parts: Part[]): Promise<void> {
  for (const part of parts) {
    const r = await safeValidateUIMessages({ messages: [{ id: 'm', role: 'assistant', parts: [part] }] });
    expect(r.success, `${part.toolCallId}: ${r.success ? '' : String(r.error).slice(0, 400)}`).toBe(true);
    // The validator strips keys it does not know: what it returns must be the whole part.
    if (r.success) expect(r.data[0]!.parts[0], `${part.toolCallId} has no unknown keys`).toEqual(part);
  }
}

async function read(chunks: unknown[]): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk as UIMessageChunk);
      c.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const m of readUIMessageStream({ stream, terminateOnError: true })) last = m;
  if (!last) throw new Error('the stream gave no message');
  return last;
}

/** What JSON keeps: the stream reader leaves keys set to undefined. */
const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe.skipIf(!files.length)('AI SDK 6 on every corpus recording', () => {
  let totalParts = 0;
  let denials = 0;

  it.each(files)('%s: parts, chunks and the read-back stream', async (rel) => {
    const parts = (await normalizeTo('ai-sdk', corpusPath(rel))) as Part[];
    const staticParts = (await normalizeTo('ai-sdk', corpusPath(rel), ['--ai-sdk-parts', 'static'])) as Part[];
    const chunks = await normalizeTo('ai-sdk-stream', corpusPath(rel));
    const counted = (await normalizeTo('parts', corpusPath(rel))).length;
    expect(parts.length, 'one AI SDK part per toolnorm part').toBe(counted);
    totalParts += parts.length;
    await validParts(parts);
    await validParts(staticParts);
    for (const p of staticParts) expect(p.type.startsWith('tool-') && !('toolName' in p)).toBe(true);

    for (const chunk of chunks as { type: string }[]) {
      const r = await safeValidateTypes({ value: chunk, schema: uiMessageChunkSchema });
      expect(r.success, `${JSON.stringify(chunk).slice(0, 200)}`).toBe(true);
      expect(CHUNK_KEYS[chunk.type], chunk.type).toBeDefined();
      for (const k of Object.keys(chunk)) expect(CHUNK_KEYS[chunk.type], `${chunk.type}.${k}`).toContain(k);
    }
    if (!parts.length) {
      expect(chunks).toEqual([]);
      return;
    }
    expect((chunks[0] as { type: string }).type).toBe('start');
    expect((chunks.at(-1) as { type: string }).type).toBe('finish');

    const message = await read(chunks);
    const streamed = plain(message.parts) as Part[];
    // Every part once. The message holds them in the order they started; --to ai-sdk prints
    // each when it is final, so the orders differ where calls overlap.
    expect(streamed.map((p) => p.toolCallId).sort()).toEqual(parts.map((p) => p.toolCallId).sort());
    const byId = new Map(streamed.map((p) => [p.toolCallId, p]));
    for (const part of parts) {
      const got = byId.get(part.toolCallId)!;
      if (part.state === 'output-denied') {
        // The one difference: AI SDK 6's stream has no chunk for the user's answer to an
        // approval request, so a streamed denial has the request's id and nothing else.
        denials++;
        const approval = part.approval as { id: string; approved: false; reason?: string };
        expect(got.approval).toEqual({ id: approval.id });
        expect({ ...got, approval }).toEqual(part);
      } else {
        expect(got).toEqual(part);
      }
    }
    // Same parts from the static form's stream, typed `tool-<name>`.
    const staticChunks = await normalizeTo('ai-sdk-stream', corpusPath(rel), ['--ai-sdk-parts', 'static']);
    const staticStreamed = plain((await read(staticChunks)).parts) as Part[];
    expect(staticStreamed.map((p) => p.type).sort()).toEqual(staticParts.map((p) => p.type).sort());
  });

  it('covered the corpus, denials included', () => {
    expect(totalParts).toBeGreaterThanOrEqual(390);
    expect(denials).toBeGreaterThan(0);
  });
});
