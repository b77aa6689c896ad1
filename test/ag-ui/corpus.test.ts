// Every corpus recording through `--to ag-ui`: each event passes @ag-ui/core's own schemas, and
// each session's sequence passes @ag-ui/client's verifier (the check its client runs on a stream).
import { describe, expect, it } from 'vitest';
import { EventSchemas } from '@ag-ui/core/schemas';
import { verifyEvents, type BaseEvent } from '@ag-ui/client';
import { from, lastValueFrom, toArray } from 'rxjs';
import { corpusInputs, corpusPath, normalizeTo } from '../helpers/ecosystem.js';

const files = corpusInputs();
type Ev = Record<string, unknown> & { type: string; threadId?: string; toolCallId?: string };

/** Splits an output into its runs (one per session), as a client subscribed to one thread sees it. */
function runs(events: Ev[]): Ev[][] {
  const out: Ev[][] = [];
  let current: Ev[] | undefined;
  const open = new Map<string, Ev[]>();
  const owner = new Map<string, Ev[]>();
  for (const e of events) {
    if (e.type === 'RUN_STARTED') {
      current = [e];
      open.set(e.threadId!, current);
      out.push(current);
      continue;
    }
    // Tool events carry no thread id: they belong to the run their call started in.
    const id = (e.toolCallId ?? (e as { subagentRunId?: string }).subagentRunId) as string | undefined;
    const run = e.threadId ? open.get(e.threadId) : id && owner.get(id) ? owner.get(id) : current;
    if (e.type === 'TOOL_CALL_START' || e.type === 'SUBAGENT_STARTED') owner.set((e.toolCallId ?? (e as { subagentRunId?: string }).subagentRunId) as string, run!);
    run!.push(e);
  }
  return out;
}

describe.skipIf(!files.length)('AG-UI 1.0 on every corpus recording', () => {
  const seen = new Set<string>();
  it.each(files)('%s: every event passes the schemas, every run the verifier', async (rel) => {
    const events = (await normalizeTo('ag-ui', corpusPath(rel))) as Ev[];
    const parts = (await normalizeTo('parts', corpusPath(rel))) as { id: string; state: string }[];
    for (const e of events) {
      const r = EventSchemas.safeParse(e);
      expect(r.success, `${JSON.stringify(e).slice(0, 200)}: ${r.success ? '' : r.error.message.slice(0, 300)}`).toBe(true);
      seen.add(e.type);
    }
    // One start and one result per finished part; one start per part.
    const count = (t: string) => events.filter((e) => e.type === t).length;
    expect(count('TOOL_CALL_START')).toBe(parts.length);
    expect(count('TOOL_CALL_END')).toBe(parts.length);
    expect(count('TOOL_CALL_RESULT')).toBe(parts.filter((p) => p.state === 'complete' || p.state === 'error').length);
    expect(count('RUN_STARTED')).toBe(count('RUN_FINISHED'));
    if (!parts.length) return;
    for (const run of runs(events)) {
      const verified = await lastValueFrom(from(run as BaseEvent[]).pipe(verifyEvents(false), toArray()));
      expect(verified.length).toBe(run.length);
    }
  });

  it('the verifier is not vacuous: the same output with one TOOL_CALL_END dropped is refused', async () => {
    const rel = files.find((f) => f.includes('ccviewer'))!;
    const run = runs((await normalizeTo('ag-ui', corpusPath(rel))) as Ev[])[0]!;
    const broken = run.filter((e, i) => !(e.type === 'TOOL_CALL_END' && i === run.findIndex((x) => x.type === 'TOOL_CALL_END')));
    expect(broken.length).toBe(run.length - 1);
    await expect(lastValueFrom(from(broken as BaseEvent[]).pipe(verifyEvents(false), toArray()))).rejects.toThrow(/tool calls are still active/);
  });

  it('used the tool, run, subagent and progress events', () => {
    for (const t of ['RUN_STARTED', 'RUN_FINISHED', 'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT', 'SUBAGENT_STARTED', 'SUBAGENT_FINISHED']) expect(seen, t).toContain(t);
  });
});
