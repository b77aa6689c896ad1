// `replay --to ai-sdk | ai-sdk-stream | ag-ui | otel` from a real SQLite store gives what
// `normalize` gives for the same recording (parts are final there, so only their order differs).
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { safeValidateUIMessages } from 'ai';
import { EventSchemas } from '@ag-ui/core/schemas';
import { verifyEvents, type BaseEvent } from '@ag-ui/client';
import { from, lastValueFrom, toArray } from 'rxjs';
import { cli } from '../helpers/cli.js';
import { LIFECYCLES_NDJSON } from '../helpers/lifecycles.js';

const dir = mkdtempSync(join(tmpdir(), 'toolnorm-eco-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const store = `sqlite:${join(dir, 'events.db')}`;
type Rec = Record<string, unknown> & { type?: string; toolCallId?: string };
const byId = (xs: Rec[]) => [...xs].sort((a, b) => String(a.toolCallId).localeCompare(String(b.toolCallId)));

describe('ecosystem formats through replay', () => {
  it('normalize --store, then replay each format', async () => {
    expect((await cli(['normalize', '--from', 'events', '--store', store, '--quiet', '-'], { stdin: LIFECYCLES_NDJSON })).code).toBe(0);
    const replay = async (to: string) => {
      const r = await cli(['replay', '--store', store, '--session', 's1', '--to', to]);
      expect(r.code, r.stderr).toBe(0);
      return r.lines as Rec[];
    };
    const normalize = async (to: string) => (await cli(['normalize', '--from', 'events', '--to', to, '--quiet', '-'], { stdin: LIFECYCLES_NDJSON })).lines as Rec[];

    const parts = await replay('ai-sdk');
    expect(parts.length).toBe(7);
    expect((await safeValidateUIMessages({ messages: [{ id: 'm', role: 'assistant', parts: parts as never }] })).success).toBe(true);
    expect(byId(parts)).toEqual(byId(await normalize('ai-sdk')));

    const chunks = await replay('ai-sdk-stream');
    expect(chunks[0]).toEqual({ type: 'start', messageId: 's1' });
    expect(chunks.filter((c) => c.type === 'tool-input-start').length).toBe(7);

    const events = await replay('ag-ui');
    for (const e of events) expect(EventSchemas.safeParse(e).success).toBe(true);
    await lastValueFrom(from(events as BaseEvent[]).pipe(verifyEvents(false), toArray()));
    const count = (xs: Rec[], t: string) => xs.filter((e) => e.type === t).length;
    const live = await normalize('ag-ui');
    for (const t of ['TOOL_CALL_START', 'TOOL_CALL_END', 'TOOL_CALL_RESULT', 'RUN_FINISHED']) expect(count(events, t), t).toBe(count(live, t));

    const otel = await replay('otel');
    const spans = (x: Rec[]) => x.flatMap((r) => (r as { resourceSpans: { scopeSpans: { spans: Rec[] }[] }[] }).resourceSpans[0]!.scopeSpans[0]!.spans);
    // Same ids, parents and times: they are derived from the session and part ids only.
    const key = (s: Rec) => JSON.stringify(s);
    expect(spans(otel).map(key).sort()).toEqual(spans(await normalize('otel')).map(key).sort());
  });

  it('an unknown --to names the ecosystem formats', async () => {
    const r = await cli(['normalize', '--to', 'bogus', '-'], { stdin: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ai-sdk, ai-sdk-stream, ag-ui, otel/);
  });
});

describe('--ai-sdk-version', () => {
  const denied = 'fixtures/claude/streamjson-all-tools/streamjson-all-tools.jsonl';
  const chunks = async (args: string[]) => {
    const r = await cli(['normalize', '--to', 'ai-sdk-stream', '--quiet', ...args, denied]);
    expect(r.code, r.stderr).toBe(0);
    return r.lines as Rec[];
  };
  it('7 sends a denial as the approval request, its refusal and tool-output-denied; 6 (the default) as tool-output-error', async () => {
    const v6 = await chunks([]);
    const v7 = await chunks(['--ai-sdk-version', '7']);
    expect(v6.some((c) => c.type === 'tool-approval-response')).toBe(false);
    // Typed approvals: a call the user or a rule let through is answered approved, a denied one refused.
    const responses = v7.filter((c) => c.type === 'tool-approval-response');
    const refusals = responses.filter((c) => c.approved === false);
    expect(refusals.length).toBeGreaterThan(0);
    const deniedIds = v7.filter((c) => c.type === 'tool-output-denied').map((c) => c.toolCallId);
    expect(deniedIds.length).toBe(refusals.length);
    // Every approved answer belongs to a call that then ran: none of them ends denied.
    const requestOf = new Map(v7.filter((c) => c.type === 'tool-approval-request').map((c) => [c.approvalId, c.toolCallId]));
    for (const r of responses.filter((c) => c.approved === true)) expect(deniedIds).not.toContain(requestOf.get(r.approvalId));
    // The same calls end as errors in the AI SDK 6 form.
    for (const id of deniedIds) expect(v6.some((c) => c.type === 'tool-output-error' && c.toolCallId === id)).toBe(true);
    expect(await chunks(['--ai-sdk-version', '6'])).toEqual(v6);
  });
  it('anything else is a usage error', async () => {
    const r = await cli(['normalize', '--to', 'ai-sdk-stream', '--ai-sdk-version', '8', denied]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--ai-sdk-version must be 6 or 7');
  });
});
