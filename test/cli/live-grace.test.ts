// Issue 30, live use of the formats that print a part once it is final (`parts`, `ui`, `ai-sdk`):
// a part stays in memory for a grace window of 64 events after it turns final (late enrichment,
// such as a background task's notification after its result), and a regular file prints it when
// that window ends. On a pipe, a part waiting out its window is printed as soon as the input
// pauses; if a later event changes it, it is printed again, so the last line per id is the final
// part. Asserted on order (what has come out before the next line is written), never on time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { LiveCli, recordsAfterEachLine } from './live-cli.js';

type Format = 'parts' | 'ui' | 'ai-sdk';
const FORMATS: Format[] = ['parts', 'ui', 'ai-sdk'];
type Rec = Record<string, unknown>;
/** A record's call id: `id` in parts, `toolCallId` in UI and AI SDK parts. */
const idOf = (r: Rec) => (r.id ?? r.toolCallId) as string;
const COMPLETE: Record<Format, string> = { parts: 'complete', ui: 'output-available', 'ai-sdk': 'output-available' };

const linesOf = (rel: string) => readFileSync(join(REPO_ROOT, 'fixtures', rel), 'utf8').split('\n').filter((l) => l.trim());

// Claude stream-json: the first call's result is on line 4, and the 64-event window runs far past it.
const ALL_TOOLS = 'claude/streamjson-all-tools/streamjson-all-tools.jsonl';
const FIRST_CALL = 'toolu_mock001_0';
const FIRST_RESULT_LINE = 4;

// A background Bash call (real Claude Code 2.1.332 recording): its tool_result (line 21) comes
// first, and the task's `task_updated` (line 25) and `task_notification` (line 26) enrich the
// finished part afterwards, well inside the window: late enrichment.
const BG_BASH = 'claude/bg-bash-legacy-names/bg-bash-legacy-names.jsonl';
const BG_CALL = 'toolu_mock005_0';
const BG_RESULT_LINE = 21;
const BG_NOTIFICATION_LINE = 26;

const parsed = (cli: LiveCli) => cli.out.map((l) => JSON.parse(l) as Rec);
const ofCall = (records: Rec[], id: string) => records.filter((r) => idOf(r) === id);
/** The task metadata a part carries (parts: metadata.task; UI: metadata.task; AI SDK: providerMetadata.toolnorm.metadata.task). */
const taskOf = (r: Rec): Rec | undefined => {
  const meta = (r.metadata ?? ((r.callProviderMetadata as Rec | undefined)?.toolnorm as Rec | undefined)?.metadata) as Rec | undefined;
  return meta?.task as Rec | undefined;
};

describe('on a pipe, a final part is printed when the input pauses, not 64 events later', () => {
  it.concurrent.for(FORMATS)('--to %s: the first call is out before line 5 is written', { timeout: 120_000 }, async (to, { expect }) => {
    const lines = linesOf(ALL_TOOLS);
    // Control: without the pause rule (a regular file), nothing is printed by then.
    const file = await recordsAfterEachLine(lines, to);
    expect(file.afterLine[FIRST_RESULT_LINE - 1]).toBe(0);
    const live = new LiveCli(['normalize', '--to', to, '--summary']);
    live.write(lines.slice(0, FIRST_RESULT_LINE).join('\n'));
    const printed = await live.until(() => ofCall(parsed(live), FIRST_CALL).length > 0);
    const before = ofCall(parsed(live), FIRST_CALL);
    live.write(lines.slice(FIRST_RESULT_LINE).join('\n'));
    live.end();
    const exit = await live.exited;
    expect(printed, 'the finished call was printed before the next line was written').toBe(true);
    expect(before).toHaveLength(1);
    expect(before[0]!.state).toBe(COMPLETE[to]);
    expect(exit.code).toBe(0);
    // Nothing changed it later: printed once, and the summary counts each part once.
    const fromFile = await cli(['normalize', '--to', to, '--summary', join(REPO_ROOT, 'fixtures', ALL_TOOLS)]);
    const all = parsed(live);
    expect(ofCall(all, FIRST_CALL)).toEqual(ofCall(fromFile.lines as Rec[], FIRST_CALL));
    expect(JSON.parse(live.err.at(-1)!)).toEqual(JSON.parse(fromFile.stderr.trim().split('\n').at(-1)!));
  });

  it.concurrent.for(FORMATS)('--to %s: a part enriched after its result is printed again, the last line is the final part', { timeout: 120_000 }, async (to, { expect }) => {
    const path = join(REPO_ROOT, 'fixtures', BG_BASH);
    const lines = linesOf(BG_BASH);
    expect(lines[BG_NOTIFICATION_LINE - 1]).toContain('"subtype":"task_notification"');
    // Control: the file prints every id once, the background call with the notification's summary.
    const fromFile = await cli(['normalize', '--to', to, '--summary', path]);
    expect(fromFile.code).toBe(0);
    const fileRecords = fromFile.lines as Rec[];
    expect(new Set(fileRecords.map(idOf)).size).toBe(fileRecords.length);
    const final = ofCall(fileRecords, BG_CALL);
    expect(final).toHaveLength(1);
    expect(taskOf(final[0]!)?.summary).toBe('Background command "Run in background" completed (exit code 0)');

    // Live: up to the result, a pause, then the rest (the notification among it) in one write.
    const live = new LiveCli(['normalize', '--to', to, '--summary']);
    live.write(lines.slice(0, BG_RESULT_LINE).join('\n'));
    const printed = await live.until(() => ofCall(parsed(live), BG_CALL).length > 0);
    const first = ofCall(parsed(live), BG_CALL);
    live.write(lines.slice(BG_RESULT_LINE).join('\n'));
    live.end();
    const exit = await live.exited;
    expect(printed, 'the call was printed at the pause after its result').toBe(true);
    expect(exit.code).toBe(0);
    expect(first).toHaveLength(1);
    expect(first[0]!.state).toBe(COMPLETE[to]);
    expect(taskOf(first[0]!)?.summary).toBeUndefined();
    // Twice in all: at the pause, and once more for the enrichment; the last is the file's part.
    const records = parsed(live);
    const mine = ofCall(records, BG_CALL);
    expect(mine).toHaveLength(2);
    expect(mine[0]).toEqual(first[0]);
    expect(mine[1]).toEqual(final[0]);
    // Every other id: the same single line as the file gives; and the last line per id is the file's.
    const lastPerId = new Map(records.map((r) => [idOf(r), r]));
    expect([...lastPerId.values()].sort((a, b) => idOf(a).localeCompare(idOf(b)))).toEqual([...fileRecords].sort((a, b) => idOf(a).localeCompare(idOf(b))));
    expect(records).toHaveLength(fileRecords.length + 1);
    // The summary counts each part once, as the file's does.
    expect(JSON.parse(live.err.at(-1)!)).toEqual(JSON.parse(fromFile.stderr.trim().split('\n').at(-1)!));
  });
});

describe('--to ai-sdk-stream on a pipe: late enrichment goes out when the input pauses', () => {
  it('the enriched outcome of the background call is re-sent before the line after the notification is written', { timeout: 120_000 }, async ({ expect }) => {
    const path = join(REPO_ROOT, 'fixtures', BG_BASH);
    const lines = linesOf(BG_BASH);
    const fromFile = await cli(['normalize', '--to', 'ai-sdk-stream', path]);
    expect(fromFile.code).toBe(0);
    const chunksOf = (records: Rec[]) => ofCall(records, BG_CALL);
    const fileChunks = chunksOf(fromFile.lines as Rec[]);
    // Control: the file sends the outcome, then (when the part retires) the enriched one again.
    expect(fileChunks.map((c) => c.type)).toEqual(['tool-input-start', 'tool-input-available', 'tool-output-available', 'tool-input-available', 'tool-output-available']);

    const live = new LiveCli(['normalize', '--to', 'ai-sdk-stream']);
    live.write(lines.slice(0, BG_RESULT_LINE).join('\n'));
    const outcome = await live.until(() => chunksOf(parsed(live)).some((c) => c.type === 'tool-output-available'));
    live.write(lines.slice(BG_RESULT_LINE, BG_NOTIFICATION_LINE).join('\n'));
    const resent = await live.until(() => chunksOf(parsed(live)).length >= fileChunks.length);
    const beforeNext = chunksOf(parsed(live));
    live.write(lines.slice(BG_NOTIFICATION_LINE).join('\n'));
    live.end();
    const exit = await live.exited;
    expect(outcome).toBe(true);
    expect(resent, 'the enriched outcome was sent before the next line was written').toBe(true);
    expect(exit.code).toBe(0);
    // The same chunks as the file's, only sooner; nothing more for it at the end.
    expect(beforeNext).toEqual(fileChunks);
    expect(chunksOf(parsed(live))).toEqual(fileChunks);
  });
});
