// Issue 29, dates: a provider time before 1970 (or a year mutated to 0001) read as a negative
// `at`, which the contract refused, so every event of the file was dropped (16 parts became 0,
// exit 0). A time past Date's range (year 275761) or garbage was read as no time without a word.
// Now any time a Date can hold is kept, before 1970 too; an unreadable one is dropped with an
// `unreadable_time` diagnostic and never costs a part. Each recording below (Claude stream-json
// and transcript, Codex rollout and app-server, OpenCode run JSON and /event SSE) is run through
// the CLI as recorded and with every time rewritten, and must give the same parts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { issuesOfNormalizedToolPart, issuesOfToolEvent, type NormalizedToolPart } from '../../src/contract/index.js';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/corpus.js';

/** Date's range (ECMA-262), written out so this file runs against any build of the adapters. */
const MAX_EPOCH_MS = 8.64e15;

const dir = mkdtempSync(join(tmpdir(), 'toolnorm-times-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
/** How a time field is written: an ISO string, epoch ms, or epoch seconds. */
type Rewrite = { iso: (s: string) => string; ms: (n: number) => Json; s: (n: number) => Json };

const MS_KEYS = new Set(['emittedAtMs', 'startedAtMs', 'completedAtMs', 'started_at_ms', 'completed_at_ms']);
const TIME_OBJECT_KEYS = new Set(['start', 'end', 'created', 'completed', 'ran', 'compacted', 'pruned', 'updated']);

/** Every time field the providers write, rewritten (the rest of the line as it was). */
function rewriteTimes(v: Json, r: Rewrite, key = '', parent = ''): Json {
  if (Array.isArray(v)) return v.map((x) => rewriteTimes(x, r, '', key));
  if (v && typeof v === 'object') {
    const out: { [k: string]: Json } = {};
    for (const [k, x] of Object.entries(v)) out[k] = rewriteTimes(x, r, k, key);
    return out;
  }
  if (typeof v === 'string' && key === 'timestamp' && /^\d{4}-\d\d-\d\dT/.test(v)) return r.iso(v);
  if (typeof v !== 'number') return v;
  if (MS_KEYS.has(key) || key === 'timestamp' || (key === 'time' && parent !== '') || (parent === 'time' && TIME_OBJECT_KEYS.has(key))) return r.ms(v);
  if (parent === 'turn' && (key === 'startedAt' || key === 'completedAt')) return r.s(v);
  return v;
}

/** A JSON-lines or SSE (`data: {…}`) recording with its times rewritten; `onlyLine` limits it to one line. */
function rewriteFile(text: string, r: Rewrite, onlyLine?: number): string {
  return text.split('\n').map((line, i) => {
    if (onlyLine !== undefined && i + 1 !== onlyLine) return line;
    const prefix = line.startsWith('data: ') ? 'data: ' : '';
    const body = line.slice(prefix.length);
    if (!body.startsWith('{')) return line;
    return prefix + JSON.stringify(rewriteTimes(JSON.parse(body) as Json, r));
  }).join('\n');
}

/** Moves every time by `ms` (an ISO string stays ISO, in Date's own extended form past year 9999). */
const shiftBy = (ms: number): Rewrite => ({ iso: (s) => new Date(Date.parse(s) - ms).toISOString(), ms: (n) => n - ms, s: (n) => n - ms / 1000 });
/** To 1950: every time negative. */
const TO_1950 = Date.UTC(2026, 0, 1) - Date.UTC(1950, 0, 1);
/** To the year 0001 (the year digits mutated), still a time a Date holds (Date.UTC would read year 1 as 1901). */
const TO_YEAR_1 = Date.UTC(2026, 0, 1) - new Date(0).setUTCFullYear(1, 0, 1);
/** Past Date's range: the year 275761, and numbers beyond ±8.64e15 ms. */
const PAST_RANGE: Rewrite = { iso: (s) => s.replace(/^\d{4}/, '+275761'), ms: (n) => n + MAX_EPOCH_MS, s: (n) => n + MAX_EPOCH_MS / 1000 };
/** Not a date at all (JSON has no NaN: a string where a number belongs). */
const GARBAGE: Rewrite = { iso: () => 'yesterday', ms: () => 'soon', s: () => 'later' };

const RECORDINGS = [
  { provider: 'claude', file: 'fixtures/claude/streamjson-all-tools/streamjson-all-tools.jsonl' },
  { provider: 'claude', file: 'fixtures/claude/transcript-subagents/236a8a83-1c69-47e3-af2a-419b8d41680e.jsonl' },
  { provider: 'codex', file: 'fixtures/codex/rollout-0163-probe/rollout-0163-probe.jsonl' },
  { provider: 'codex', file: 'fixtures/codex/appserver-tools/appserver-tools.jsonl' },
  { provider: 'opencode', file: 'fixtures/opencode/run1/run1-run.jsonl' },
  { provider: 'opencode', file: 'fixtures/opencode/run1/run1-events.sse' },
] as const;

interface Run { code: number; parts: NormalizedToolPart[]; diagnostics: { code: string; message: string; source?: { line?: number } }[]; summary: { parts: number; invalidEvents: number } }

let n = 0;
async function run(provider: string, text: string, name: string): Promise<Run> {
  const file = join(dir, `${n++}-${name.split('/').pop()}`);
  writeFileSync(file, text);
  const r = await cli(['normalize', '--from', provider, '--summary', file]);
  const err = r.stderr.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const summary = err.pop() as unknown as Run['summary'];
  return { code: r.code, parts: r.lines as NormalizedToolPart[], diagnostics: err as unknown as Run['diagnostics'], summary };
}

// An approval's `at` / `requestedAt` are provider times too (the line's), so they move with them.
const approvalTimes = (p: NormalizedToolPart, f: (t: number) => number | undefined): NormalizedToolPart => {
  const a = p.metadata?.approval;
  if (!a) return p;
  const moved = { ...a, at: a.at === undefined ? undefined : f(a.at), requestedAt: a.requestedAt === undefined ? undefined : f(a.requestedAt) };
  if (moved.at === undefined) delete moved.at;
  if (moved.requestedAt === undefined) delete moved.requestedAt;
  return { ...p, metadata: { ...p.metadata, approval: moved } };
};
const withoutTiming = (p: NormalizedToolPart) => ({ ...approvalTimes(p, () => undefined), timing: undefined });
const codes = (r: Run) => r.diagnostics.map((d) => d.code).sort();
const shifted = (p0: NormalizedToolPart, ms: number): NormalizedToolPart => {
  const p = approvalTimes(p0, (t) => t - ms);
  if (!p.timing) return p;
  const t = { ...p.timing };
  if (typeof t.startedAt === 'number') t.startedAt -= ms;
  if (typeof t.completedAt === 'number') t.completedAt -= ms;
  return { ...p, timing: t };
};

describe.each(RECORDINGS)('$provider $file', ({ provider, file }) => {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  let base: Run;
  const baseline = async () => (base ??= await run(provider, text, file));

  it('as recorded: parts with provider times, no diagnostic about times', async () => {
    const b = await baseline();
    expect(b.code).toBe(0);
    expect(b.parts.length).toBeGreaterThan(0);
    expect(b.parts.some((p) => typeof p.timing?.startedAt === 'number' && p.timing.startedAt > 0)).toBe(true);
    expect(codes(b)).not.toContain('unreadable_time');
  });

  it.each([['1950 (negative epoch ms)', TO_1950], ['the year 0001', TO_YEAR_1]])('every time moved to %s: the same parts, times moved by as much, no new diagnostic', async (_, ms) => {
    const b = await baseline();
    const r = await run(provider, rewriteFile(text, shiftBy(ms)), file);
    expect(r.code).toBe(0);
    expect(r.summary.invalidEvents).toBe(0);
    expect(r.parts.length).toBe(b.parts.length);
    expect(r.parts).toEqual(b.parts.map((p) => shifted(p, ms)));
    expect(r.parts.some((p) => typeof p.timing?.startedAt === 'number' && p.timing.startedAt < 0)).toBe(true);
    for (const p of r.parts) expect(issuesOfNormalizedToolPart(p)).toEqual([]);
    expect(codes(r)).toEqual(codes(b));
  });

  it.each([['past Date\'s range (year +275761, ms + 8.64e15)', PAST_RANGE], ['garbage ("yesterday", "soon")', GARBAGE]])('every time %s: the same parts without provider times, and unreadable_time diagnostics naming their lines', async (_, rewrite) => {
    const b = await baseline();
    const r = await run(provider, rewriteFile(text, rewrite), file);
    expect(r.code).toBe(0);
    expect(r.summary.invalidEvents).toBe(0);
    expect(r.parts.map(withoutTiming)).toEqual(b.parts.map(withoutTiming));
    for (const p of r.parts) {
      expect(p.timing?.startedAt).toBeUndefined();
      expect(p.timing?.completedAt).toBeUndefined();
      expect(issuesOfNormalizedToolPart(p)).toEqual([]);
    }
    const unreadable = r.diagnostics.filter((d) => d.code === 'unreadable_time');
    expect(unreadable.length).toBeGreaterThan(0);
    for (const d of unreadable) {
      expect(d.source?.line).toBeGreaterThan(0);
      expect(d.message).toMatch(/is not a time \((outside the range a date can hold|not an ISO-8601)/);
    }
    // Nothing else changed: the other diagnostics are the recording's own.
    expect(r.diagnostics.filter((d) => d.code !== 'unreadable_time').map((d) => d.code).sort()).toEqual(codes(b));
  });
});

describe('one line with an unreadable time', () => {
  it('Claude transcript: only that line is reported; every part is kept', async () => {
    const file = RECORDINGS[1].file;
    const text = readFileSync(join(REPO_ROOT, file), 'utf8');
    const lines = text.split('\n');
    const target = lines.findIndex((l) => l.includes('"tool_result"')) + 1;
    const b = await run('claude', text, file);
    const r = await run('claude', rewriteFile(text, PAST_RANGE, target), file);
    expect(r.code).toBe(0);
    expect(r.parts.length).toBe(b.parts.length);
    expect(r.parts.map(withoutTiming)).toEqual(b.parts.map(withoutTiming));
    const unreadable = r.diagnostics.filter((d) => d.code === 'unreadable_time');
    expect(unreadable.map((d) => d.source?.line)).toEqual([target]);
  });
});

describe('an end before the start', () => {
  const lines = [
    { type: 'assistant', session_id: 's1', timestamp: '1969-07-20T20:17:40.000Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }] } },
    { type: 'user', session_id: 's1', timestamp: '1969-07-20T20:17:39.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a' }] } },
    { type: 'assistant', session_id: 's1', timestamp: '1969-07-20T20:17:41.000Z', message: { id: 'm2', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'pwd' } }] } },
    { type: 'user', session_id: 's1', timestamp: '1969-07-20T20:17:43.500Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: '/' }] } },
  ];
  it('keeps both times, has no elapsedMs (not a made-up 0), and says so with negative_duration; a forward one keeps its duration', async () => {
    const r = await run('claude', lines.map((l) => JSON.stringify(l)).join('\n'), 'backwards.jsonl');
    expect(r.code).toBe(0);
    const [backwards, forwards] = r.parts;
    expect(backwards!.timing).toEqual({ startedAt: Date.UTC(1969, 6, 20, 20, 17, 40), completedAt: Date.UTC(1969, 6, 20, 20, 17, 39) });
    expect(forwards!.timing).toEqual({ startedAt: Date.UTC(1969, 6, 20, 20, 17, 41), completedAt: Date.UTC(1969, 6, 20, 20, 17, 43, 500), elapsedMs: 2500 });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['negative_duration']);
    expect(r.diagnostics[0]!.message).toContain('toolu_1');
    expect(r.diagnostics[0]!.message).toContain('1000 ms before the part started');
  });
});

describe('the contract takes any time a Date can hold', () => {
  const event = (at: number) => ({ type: 'tool.started', sessionId: 's', partId: 'p', at, source: { provider: 'claude' }, name: 'Bash', kind: 'bash', title: 'Running ls', input: {} });
  it('negative epoch ms and both ends of the range are valid; one past them is not', () => {
    for (const at of [-1, -2_737_080_392, -62_135_596_800_000, MAX_EPOCH_MS, -MAX_EPOCH_MS]) expect(issuesOfToolEvent(event(at))).toEqual([]);
    for (const at of [MAX_EPOCH_MS + 1, -MAX_EPOCH_MS - 1]) expect(issuesOfToolEvent(event(at)).map((i) => i.instancePath)).toEqual(['/at']);
  });
  it('a part\'s timing: instants may be negative, a duration may not', () => {
    const part = (timing: object) => ({ id: 'p', name: 'Bash', kind: 'bash', title: 'Running ls', input: {}, state: 'complete', output: 'a', timing });
    expect(issuesOfNormalizedToolPart(part({ startedAt: -5000, completedAt: -4000, elapsedMs: 1000 }))).toEqual([]);
    expect(issuesOfNormalizedToolPart(part({ startedAt: -5000, elapsedMs: -1 })).map((i) => i.instancePath)).toEqual(['/timing/elapsedMs']);
  });
});

describe('the CLI on events that break the contract', () => {
  it('exits 1 (the output is short of the input), not 0 with the parts silently missing', async () => {
    const { ADAPTERS } = await import('../../src/adapters/registry.js');
    // A fake adapter, because no real one breaks the contract any more: it emits one valid
    // `tool.started` and one with an out-of-range `at`, as the adapters did for pre-1970 times.
    const broken = {
      id: 'broken-times', provider: 'claude' as const, description: 'test adapter that emits an invalid event', sniff: () => 0,
      create: (sink: { event: (e: unknown) => void }) => ({
        line(text: string, pos: { line: number }) {
          sink.event({ type: 'tool.started', sessionId: 's', partId: `p${pos.line}`, at: Number(text), source: { provider: 'claude', line: pos.line }, name: 'Bash', kind: 'bash', title: 'Running ls', input: {} });
        },
        end() {},
      }),
    };
    (ADAPTERS as unknown[]).push(broken);
    try {
      const file = join(dir, 'broken.txt');
      writeFileSync(file, `1796025019067\n${MAX_EPOCH_MS * 2}\n`);
      const r = await cli(['normalize', '--from', 'broken-times', '--summary', file]);
      const summary = JSON.parse(r.stderr.trim().split('\n').pop()!) as { parts: number; invalidEvents: number };
      expect(summary).toMatchObject({ parts: 1, invalidEvents: 1 });
      expect(r.stderr).toContain('"code":"invalid_event"');
      expect(r.code).toBe(1);
      writeFileSync(file, '1796025019067\n-2737080392\n');
      const ok = await cli(['normalize', '--from', 'broken-times', '--summary', file]);
      expect(JSON.parse(ok.stderr.trim().split('\n').pop()!)).toMatchObject({ parts: 2, invalidEvents: 0 });
      expect(ok.code).toBe(0);
    } finally {
      (ADAPTERS as unknown[]).splice((ADAPTERS as unknown[]).indexOf(broken), 1);
    }
  });
});
