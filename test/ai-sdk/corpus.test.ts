// Every corpus recording through `--to ai-sdk` and `--to ai-sdk-stream`, checked by the installed AI
// SDK's own validators (validateUIMessages, uiMessageChunkSchema), and the stream read back by its
// own consumer (readUIMessageStream) into the same parts, which validateUIMessages accepts again
// (what an app that stores `useChat` messages does). Runs under ai 6 (Node 20) and ai 7 (Node 24);
// where they differ, each branch asserts what that version does.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { readUIMessageStream, safeValidateUIMessages, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from 'ai';
import { safeValidateTypes } from '@ai-sdk/provider-utils';
import { corpusInputs, corpusPath, normalizeTo } from '../helpers/ecosystem.js';
import { encodeEvents } from '../helpers/encode.js';
import { aiSdkStreamEncoder } from '../../src/ai-sdk/index.js';

/** The installed `ai` major: 6 here, 7 in the Node 24 job. */
const AI_MAJOR = Number((createRequire(import.meta.url)('ai/package.json') as { version: string }).version.split('.')[0]);

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
  // AI SDK 7 only; sent with `version: 7`.
  'tool-approval-response': ['type', 'approvalId', 'approved', 'reason', 'providerExecuted', 'providerMetadata'],
};

/**
 * What validateUIMessages returns for a part: the whole part. ai 6.0.x's validator alone drops
 * `title` from tool parts although its own types declare it (its stream reader keeps it); ai 7's
 * keeps it.
 */
const validated = (part: Part): Part => {
  if (AI_MAJOR >= 7) return part;
  const { title: _dropped, ...rest } = part;
  return rest as Part;
};

async function validParts(parts: Part[]): Promise<void> {
  for (const part of parts) {
    const r = await safeValidateUIMessages({ messages: [{ id: 'm', role: 'assistant', parts: [part] }] });
    expect(r.success, `${part.toolCallId}: ${r.success ? '' : String(r.error).slice(0, 400)}`).toBe(true);
    // The validator strips keys it does not know: what it returns must be the whole part.
    if (r.success) expect(r.data[0]!.parts[0], `${part.toolCallId} has no unknown keys`).toEqual(validated(part));
  }
}

async function validMessage(message: UIMessage, what: string): Promise<void> {
  const r = await safeValidateUIMessages({ messages: [message] });
  expect(r.success, `${what}: ${r.success ? '' : String(r.error).slice(0, 400)}`).toBe(true);
}

/** What a streamed denial rebuilds as on AI SDK 6, which has no chunk for the answer: the error it also is. */
function asError(part: Part): Part {
  const { approval, ...rest } = part as Part & { approval: { reason?: string } };
  return { ...rest, state: 'output-error', errorText: approval.reason ?? '' };
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
  let granted = 0;
  let titled = 0;

  it.each(files)('%s: parts, chunks and the read-back stream', async (rel) => {
    const parts = (await normalizeTo('ai-sdk', corpusPath(rel))) as Part[];
    const staticParts = (await normalizeTo('ai-sdk', corpusPath(rel), ['--ai-sdk-parts', 'static'])) as Part[];
    const chunks = await normalizeTo('ai-sdk-stream', corpusPath(rel));
    const counted = (await normalizeTo('parts', corpusPath(rel))).length;
    expect(parts.length, 'one AI SDK part per toolnorm part').toBe(counted);
    totalParts += parts.length;
    titled += parts.filter((p) => typeof p.title === 'string' && p.title.length > 0).length;
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
    // The rebuilt message is one an app can store and validate again.
    await validMessage(plain(message), `${rel} rebuilt from the stream`);
    const streamed = plain(message.parts) as Part[];
    // Every part once. The message holds them in the order they started; --to ai-sdk prints
    // each when it is final, so the orders differ where calls overlap.
    expect(streamed.map((p) => p.toolCallId).sort()).toEqual(parts.map((p) => p.toolCallId).sort());
    const byId = new Map(streamed.map((p) => [p.toolCallId, p]));
    for (const part of parts) {
      const got = byId.get(part.toolCallId)!;
      if (part.state === 'output-denied') {
        // The default stream (version 6) is one both majors accept: 6 has no chunk for the
        // answer to an approval request, so a denial is sent as the error it also is.
        denials++;
        expect(got).toEqual(asError(part));
        expect((got.callProviderMetadata as { toolnorm: { error: { code: string } } }).toolnorm.error.code).toBe('denied');
      } else if ((part.approval as { approved?: boolean } | undefined)?.approved === true) {
        // Nor for a granted answer: the version 6 stream rebuilds the outcome without it, and
        // the rest is the part exactly (version 7 below carries the answer too).
        granted++;
        const { approval: _approval, ...rest } = part;
        expect(got).toEqual(rest);
      } else {
        expect(got).toEqual(part);
      }
    }
    // Same parts from the static form's stream, typed `tool-<name>`.
    const staticChunks = await normalizeTo('ai-sdk-stream', corpusPath(rel), ['--ai-sdk-parts', 'static']);
    const staticStreamed = plain((await read(staticChunks)).parts) as Part[];
    expect(staticStreamed.map((p) => p.type).sort()).toEqual(staticParts.map((p) => p.type).sort());

    // `version: 7`: the denial's answer travels too, so the stream rebuilds exactly the parts.
    const events = await normalizeTo('events', corpusPath(rel));
    const v7 = encodeEvents(events, aiSdkStreamEncoder({ version: 7 })) as { type: string }[];
    const answers = v7.filter((c) => c.type === 'tool-approval-response');
    // One answer per answered approval: each denial, and each granted one.
    expect(answers.length).toBe(parts.filter((p) => p.state === 'output-denied' || (p.approval as { approved?: boolean } | undefined)?.approved === true).length);
    for (const chunk of answers) {
      const r = await safeValidateTypes({ value: chunk, schema: uiMessageChunkSchema });
      // ai 6's chunk schema refuses the answer chunk: why version 6 is the default.
      expect(r.success, JSON.stringify(chunk)).toBe(AI_MAJOR >= 7);
    }
    if (AI_MAJOR >= 7) {
      const m7 = plain(await read(v7));
      await validMessage(m7, `${rel} rebuilt from the version 7 stream`);
      const by7 = new Map((m7.parts as Part[]).map((p) => [p.toolCallId, p]));
      for (const part of parts) if (part.state !== 'input-streaming') expect(by7.get(part.toolCallId)).toEqual(part);
    }
  });

  it('covered the corpus, denials and titles included', () => {
    expect(totalParts).toBeGreaterThanOrEqual(390);
    expect(denials).toBeGreaterThan(0);
    expect(granted).toBeGreaterThan(0);
    expect(titled).toBeGreaterThan(totalParts / 2);
  });
});
