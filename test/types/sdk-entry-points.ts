// Type test, compiled by `npm run typecheck` with test/types/tsconfig.json (strict, no skipLibCheck;
// DOM in lib only because @modelcontextprotocol/sdk, a Claude Agent SDK dependency, names HeadersInit) and never run: the typed live entry points take the
// providers' own published SDK types with no casts, and reject what is not one. If a parameter
// were widened to `unknown`, every @ts-expect-error below would be unused, which tsc reports as
// an error, so the typecheck fails.
import type { Query, SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import type { RunStreamedResult, ThreadEvent } from '@openai/codex-sdk';
import type { Event as OpenCodeEvent } from '@opencode-ai/sdk';
import type { Event as OpenCodeEventV2, GlobalEvent } from '@opencode-ai/sdk/v2';
import { claudeNormalizer, normalizeClaudeMessages } from '../../src/sdk/claude.js';
import { codexNormalizer, normalizeCodexEvents } from '../../src/sdk/codex.js';
import { normalizeOpenCodeEvents, openCodeNormalizer } from '../../src/sdk/opencode.js';
import type { LiveUpdate, NormalizedToolPart } from '../../src/index.js';

declare const query: Query;
declare const streamed: RunStreamedResult;
declare const opencodeStream: AsyncGenerator<OpenCodeEvent>;
declare const opencodeV2: AsyncIterable<OpenCodeEventV2>;
declare const globalEvents: GlobalEvent[];
declare const claudeMessage: SDKMessage;
declare const codexEvent: ThreadEvent;

export async function typeTest(): Promise<NormalizedToolPart[]> {
  const parts: NormalizedToolPart[] = [];
  // The SDKs' own iterables go straight in.
  for await (const u of normalizeClaudeMessages(query)) if (u.type === 'part') parts.push(u.part);
  for await (const u of normalizeCodexEvents(streamed.events)) if (u.type === 'part') parts.push(u.part);
  for await (const u of normalizeOpenCodeEvents(opencodeStream)) if (u.type === 'part') parts.push(u.part);
  for await (const u of normalizeOpenCodeEvents(opencodeV2)) if (u.type === 'part') parts.push(u.part);
  for await (const u of normalizeOpenCodeEvents(globalEvents)) if (u.type === 'part') parts.push(u.part);
  const updates: LiveUpdate[] = [...claudeNormalizer().push(claudeMessage), ...codexNormalizer().push(codexEvent)];

  // @ts-expect-error a Codex event is not a Claude Agent SDK message
  claudeNormalizer().push(codexEvent);
  // @ts-expect-error an arbitrary object is not a Claude Agent SDK message
  claudeNormalizer().push({ hello: 'world' });
  // @ts-expect-error a Claude message is not a Codex thread event
  codexNormalizer().push(claudeMessage);
  // @ts-expect-error an arbitrary object is not a Codex thread event
  normalizeCodexEvents([{ type: 'nope' }]);
  // @ts-expect-error a Codex event is not an OpenCode event
  openCodeNormalizer().push(codexEvent);
  // @ts-expect-error strings are lines for the generic normalizeStream, not SDK events
  normalizeOpenCodeEvents(['{"type":"x"}']);
  return updates.length ? parts : parts;
}
