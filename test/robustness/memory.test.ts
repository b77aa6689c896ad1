// Bounded memory without lying (issue 16). With 100k interleaved sessions (every call opened before
// any result), 50,000 results used to be reported as orphan_result ("not in the input") and
// 50,000 parts stayed `started` with no word. Now the pipeline holds at most MAX_HELD_PARTS parts:
// the least recently active are printed with their last known state and an evicted_part
// diagnostic, and a result for one is reported as late (late_event from the pipeline, or
// late_result when the adapter had forgotten the call too), never as orphan_result.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_HELD_PARTS } from '../../src/pipeline/normalize.js';
import { cli } from '../helpers/cli.js';

// Ten times the cap: more calls are forgotten while open than the adapter keeps (CALLS_KEPT). Some
// 200k lines and as many diagnostics: over a minute on a loaded machine, so the timeout is raised.
const SESSIONS = 10 * MAX_HELD_PARTS;

describe('interleaved sessions past the caps', () => {
  it(`${SESSIONS} sessions, each call open until all are: every part printed once, every eviction said, every late result reported as late`, async () => {
    const t0 = Date.parse('2026-01-01T00:00:00.000Z');
    const lines: string[] = [];
    for (let i = 0; i < SESSIONS; i++) lines.push(JSON.stringify({ type: 'assistant', session_id: `s${i}`, timestamp: new Date(t0 + i).toISOString(), message: { id: `m${i}`, role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `echo ${i}` } }] } }));
    for (let i = 0; i < SESSIONS; i++) lines.push(JSON.stringify({ type: 'user', session_id: `s${i}`, timestamp: new Date(t0 + SESSIONS + i).toISOString(), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `${i}` }] } }));
    const file = join(mkdtempSync(join(tmpdir(), 'toolnorm-sessions-')), 'interleaved.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);

    const r = await cli(['normalize', '--from', 'claude', '--to', 'parts', '--summary', file]);
    expect(r.code).toBe(0);
    const err = r.stderr.trim().split('\n').map((l) => JSON.parse(l) as { code?: string; partId?: string; inputLines?: number });
    const summary = err.pop() as { inputLines: number; parts: number; byState: Record<string, number>; diagnostics: number };
    const count = (code: string) => err.filter((d) => d.code === code).length;
    expect(count('orphan_result')).toBe(0);
    expect(summary.inputLines).toBe(2 * SESSIONS);
    expect(summary.parts).toBe(SESSIONS);
    expect(r.lines).toHaveLength(SESSIONS);
    expect(new Set((r.lines as { id: string }[]).map((p) => p.id)).size).toBe(SESSIONS);
    const evicted = new Set(err.filter((d) => d.code === 'evicted_part').map((d) => d.partId));
    const started = (r.lines as { id: string; state: string }[]).filter((p) => p.state === 'started');
    // Every part left open was evicted with a diagnostic, and every evicted part's result is late.
    expect(started.length).toBeGreaterThan(0);
    for (const p of started) expect(evicted.has(p.id), p.id).toBe(true);
    expect(count('late_event') + count('late_result')).toBe(evicted.size);
    expect(summary.byState.complete).toBe(SESSIONS - evicted.size);
    expect(summary.diagnostics).toBe(err.length);
  }, 300_000);
});
