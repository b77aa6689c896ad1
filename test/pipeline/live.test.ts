// normalizeStream: a live UI sees every step of every part, in order, from SDK objects.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeStream, LiveNormalizer, type LiveUpdate } from '../../src/pipeline/live.js';
import { normalizeClaudeMessages, claudeNormalizer } from '../../src/sdk/claude.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { MAX_HELD_PARTS } from '../../src/pipeline/normalize.js';

const demo = readFileSync(join(REPO_ROOT, 'fixtures', 'demo', 'claude-streamjson-all-tools.jsonl'), 'utf8');
const messages = demo.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as unknown);
const RANK: Record<string, number> = { started: 0, running: 1, complete: 2, error: 2 };

async function* slowly<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) {
    await new Promise((r) => setImmediate(r));
    yield item;
  }
}

describe('normalizeStream', () => {
  it('yields each part as it changes, never going back, final exactly once', async () => {
    const updates: LiveUpdate[] = [];
    for await (const u of normalizeStream(slowly(messages), { from: 'claude', clock: () => 0 })) updates.push(u);
    const parts = updates.filter((u) => u.type === 'part');
    const byId = new Map<string, typeof parts>();
    for (const u of parts) byId.set(u.part.id, [...(byId.get(u.part.id) ?? []), u]);
    expect(byId.size).toBeGreaterThan(5);
    // A part is seen before it is final: the UI can show it running.
    expect([...byId.values()].some((us) => us.length > 1)).toBe(true);
    for (const [id, us] of byId) {
      const ranks = us.map((u) => RANK[u.part.state]!);
      expect(ranks, id).toEqual([...ranks].sort((a, b) => a - b));
      expect(us.filter((u) => u.final && u.part.state === us.at(-1)!.part.state).length, id).toBeGreaterThanOrEqual(1);
      expect(us.at(-1)!.event.partId).toBe(id);
    }
  });

  it('the typed Claude entry point gives the same updates as the generic one', async () => {
    const a: LiveUpdate[] = [];
    for await (const u of normalizeStream(messages, { from: 'claude', clock: () => 0 })) a.push(u);
    const b: LiveUpdate[] = [];
    for await (const u of normalizeClaudeMessages(messages as never, { clock: () => 0 })) b.push(u);
    expect(b).toEqual(a);
    const push = claudeNormalizer({ clock: () => 0 });
    const c = [...messages.flatMap((m) => push.push(m as never)), ...push.end()];
    expect(c).toEqual(a);
  });

  it('drops final parts after the grace window and reports a later event as late', () => {
    const live = new LiveNormalizer({ from: 'events', retireAfterEvents: 1 });
    const source = { provider: 'executor' as const };
    const ev = (type: string, partId: string, extra: object) => ({ type, sessionId: 's', partId, at: 1, source, ...extra });
    live.push(ev('tool.started', 'a', { name: 'Bash', kind: 'bash', title: 'Running ls', input: {} }));
    live.push(ev('tool.completed', 'a', { output: { text: 'x' } }));
    live.push(ev('tool.started', 'b', { name: 'Bash', kind: 'bash', title: 'Running ls', input: {} }));
    live.push(ev('tool.started', 'c', { name: 'Bash', kind: 'bash', title: 'Running ls', input: {} }));
    expect(live.liveParts()).toBe(2);
    const late = live.push(ev('tool.progress', 'a', {}));
    expect(late).toEqual([expect.objectContaining({ type: 'diagnostic', diagnostic: expect.objectContaining({ code: 'late_event', partId: 'a' }) })]);
  });

  it('a long-lived stream of calls that never finish stays under the pipeline\'s cap, each eviction reported', () => {
    const live = new LiveNormalizer({ from: 'events' });
    const source = { provider: 'executor' as const };
    const extra = 100;
    const evicted: string[] = [];
    for (let i = 0; i < MAX_HELD_PARTS + extra; i++) {
      for (const u of live.push({ type: 'tool.started', sessionId: 's', partId: `p${i}`, at: 1, source, name: 'Bash', kind: 'bash', title: 'Running ls', input: {} })) {
        if (u.type === 'diagnostic' && u.diagnostic.code === 'evicted_part') evicted.push(u.diagnostic.partId!);
      }
    }
    expect(live.liveParts()).toBeLessThanOrEqual(MAX_HELD_PARTS);
    expect(evicted.length).toBeGreaterThanOrEqual(extra);
    expect(evicted[0]).toBe('p0');
  });

  it('bad input is a diagnostic, never a throw', () => {
    const live = new LiveNormalizer({ from: 'claude' });
    const perInput = [live.push(42), live.push({ nope: true }), live.push('not json')];
    // One diagnostic per bad input, and at the end the account of the stream: nothing was Claude input.
    expect(perInput.map((u) => u.length)).toEqual([1, 1, 1]);
    const out = [...perInput.flat(), ...live.end()];
    expect(out.length).toBe(4);
    expect(out.every((u) => u.type === 'diagnostic')).toBe(true);
    expect(out.at(-1)).toEqual({ type: 'diagnostic', diagnostic: expect.objectContaining({ code: 'unrecognized_input' }) });
    expect(() => new LiveNormalizer({ from: 'nope' as never })).toThrow(/unknown input format "nope"/);
  });
});
