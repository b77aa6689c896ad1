// Type test, compiled by `npm run typecheck` with test/types/tsconfig.json (strict, no skipLibCheck)
// and never run: what the ecosystem encoders return is assignable, with no cast, to the ecosystems'
// own published types, so an app can hand it to them directly.
import type { UIMessage, UIMessageChunk } from 'ai';
import type { BaseEvent, Event as AgUiCoreEvent } from '@ag-ui/core';
import { aiSdkChunksOf, toAiSdkPart, type AiSdkChunk, type AiSdkToolPart } from '../../src/ai-sdk/index.js';
import { agUiEventsOf, type AgUiEvent } from '../../src/ag-ui/index.js';
import type { NormalizedToolPart } from '../../src/index.js';

declare const part: NormalizedToolPart;
declare const anyAiSdkPart: AiSdkToolPart;

// Every variant, `output-error` included, is a part of ai's UIMessage (dynamic and static forms).
export const uiPart: UIMessage['parts'][number] = anyAiSdkPart;
export const message: UIMessage = { id: 'm', role: 'assistant', parts: [toAiSdkPart(part), toAiSdkPart(part, { partType: 'static' }), anyAiSdkPart] };

// The chunks of the default stream are ai's UIMessageChunks. (The answer chunk of `version: 7`
// is AI SDK 7's; the installed ai is 6, whose chunk union has no such member.)
type Ai6Chunk = Exclude<AiSdkChunk, { type: 'tool-approval-response' }>;
declare const chunk: Ai6Chunk;
export const uiChunk: UIMessageChunk = chunk;
export const chunks: UIMessageChunk[] = aiSdkChunksOf([['s', [part]]]).filter((c): c is Ai6Chunk => c.type !== 'tool-approval-response');


// AG-UI: the events are @ag-ui/core's (its `type` is the EventType enum, not a string).
export const baseEvents: BaseEvent[] = agUiEventsOf([['s', [part]]]);
declare const agUiEvent: AgUiEvent;
export const coreEvent: AgUiCoreEvent = agUiEvent;
