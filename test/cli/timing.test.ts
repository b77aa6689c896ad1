// Issue 16, never invent: a part's timing holds only what the provider gave or what an explicit
// --clock supplies. Codex exec JSONL carries no times at all, so without --clock its events have
// no `at`, its parts no `timing`, and a store lists the session with no time (null, "-").
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isNormalizedToolPart, isToolEvent } from '../../src/contract/index.js';
import { officialAcpErrors, paramsOf } from '../helpers/acp-schema.js';
import { cli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'toolnorm-timing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// `codex exec --json`: a command that ran and one that failed; no line carries a time.
const EXEC = join(dir, 'exec.jsonl');
writeFileSync(EXEC, [
  { type: 'thread.started', thread_id: 'thr_timing' },
  { type: 'turn.started' },
  { type: 'item.started', item: { id: 'item_0', type: 'command_execution', command: 'ls', aggregated_output: '', exit_code: null, status: 'in_progress' } },
  { type: 'item.completed', item: { id: 'item_0', type: 'command_execution', command: 'ls', aggregated_output: 'a\n', exit_code: 0, status: 'completed' } },
  { type: 'item.started', item: { id: 'item_1', type: 'command_execution', command: 'false', aggregated_output: '', exit_code: null, status: 'in_progress' } },
  { type: 'item.completed', item: { id: 'item_1', type: 'command_execution', command: 'false', aggregated_output: '', exit_code: 1, status: 'failed' } },
  { type: 'turn.completed', usage: { input_tokens: 1, output_tokens: 1 } },
].map((l) => JSON.stringify(l)).join('\n'));

describe('no time in the input, no --clock', () => {
  it('parts have no timing at all (no zero timestamps) and still validate: exit 0, 2 parts', async () => {
    const r = await cli(['normalize', EXEC]);
    expect(r.code).toBe(0);
    expect(r.lines).toHaveLength(2);
    for (const p of r.lines) {
      expect(isNormalizedToolPart(p)).toBe(true);
      expect(p).not.toHaveProperty('timing');
    }
    expect(r.lines.map((p) => (p as { state: string }).state)).toEqual(['complete', 'error']);
  });

  it('events have no `at`, and still validate: exit 0, 4 events', async () => {
    const r = await cli(['normalize', '--to', 'events', EXEC]);
    expect(r.code).toBe(0);
    expect(r.lines).toHaveLength(4);
    for (const e of r.lines) {
      expect(isToolEvent(e)).toBe(true);
      expect(e).not.toHaveProperty('at');
    }
  });

  it('ACP frames carry no timing in _meta and validate against the official schema', async () => {
    const r = await cli(['normalize', '--to', 'acp', EXEC]);
    expect(r.code).toBe(0);
    expect(r.lines.length).toBeGreaterThanOrEqual(4);
    for (const f of r.lines) {
      expect(officialAcpErrors(paramsOf(f))).toEqual([]);
      expect(JSON.stringify(f)).not.toContain('"timing"');
    }
  });

  it('an explicit --clock supplies the times: zero gives 0s, wall gives now', async () => {
    const zero = await cli(['normalize', '--clock', 'zero', EXEC]);
    expect(zero.lines.map((p) => (p as { timing?: unknown }).timing)).toEqual([
      { startedAt: 0, completedAt: 0, elapsedMs: 0 },
      { startedAt: 0, completedAt: 0, elapsedMs: 0 },
    ]);
    const before = Date.now();
    const wall = await cli(['normalize', '--clock', 'wall', EXEC]);
    for (const p of wall.lines) expect((p as { timing: { startedAt: number } }).timing.startedAt).toBeGreaterThanOrEqual(before);
    expect((await cli(['normalize', '--clock', 'sundial', EXEC])).code).toBe(2);
  });

  it('with --store, sessions lists the session with no time: firstAt and lastAt null, "-" in the table', async () => {
    const url = `sqlite:${join(dir, 'events.db')}`;
    expect((await cli(['normalize', '--store', url, EXEC])).code).toBe(0);
    const s = await cli(['sessions', '--store', url]);
    expect(s.code).toBe(0);
    expect(s.lines).toEqual([{ sessionId: 'thr_timing', events: 4, firstAt: null, lastAt: null }]);
    const t = await cli(['sessions', '--store', url, '--format', 'table']);
    expect(t.stdout.trim().split('\n')[1]!.split(/\s+/)).toEqual(['thr_timing', '4', '-', '-']);
    expect(t.stdout).not.toContain('1970');
    // Replayed parts have no timing either.
    const r = await cli(['replay', '--store', url, '--session', 'thr_timing']);
    expect(r.lines).toHaveLength(2);
    for (const p of r.lines) expect(p).not.toHaveProperty('timing');
  });
});
