// Where the streaming pipeline checks the contract (issue 34): events from an adapter that keeps to
// it (`eventsChecked`, toolnorm's own) are not checked again on the way in unless `validate: 'all'`;
// events from any other adapter are; and what is printed is checked at the output's edge either way.
import { describe, expect, it } from 'vitest';
import type { Diagnostic, ToolEvent } from '../../src/contract/index.js';
import { ADAPTERS } from '../../src/adapters/registry.js';
import type { AdapterDefinition } from '../../src/adapters/types.js';
import { NormalizePipeline, type OutputFormat } from '../../src/outputs/pipeline.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { cli } from '../helpers/cli.js';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { SqliteEventStore } from '../../src/store/sqlite.js';
import { EventStoreSink } from '../../src/store/sink.js';
import { LiveNormalizer } from '../../src/pipeline/live.js';

/** A real recording shipped in the repo (the demo): a capture of Claude Code 2.1.332 using every built-in tool. */
const DEMO = join(REPO_ROOT, 'fixtures/demo/claude-streamjson-all-tools.jsonl');

/** An adapter that emits, per line, a `tool.started` whose kind is the line's text: `bogus` breaks the contract. */
const adapter = (eventsChecked: boolean): AdapterDefinition => ({
  id: 'claude', provider: 'claude', description: 'test adapter', sniff: () => 0, ...(eventsChecked ? { eventsChecked } : {}),
  create: (sink) => ({
    line(text, pos) {
      sink.event({ type: 'tool.started', sessionId: 's', partId: `p${pos.line}`, source: { provider: 'claude', line: pos.line }, name: 'Bash', kind: text, title: 'Running ls', input: {} } as unknown as ToolEvent);
      sink.event({ type: 'tool.completed', sessionId: 's', partId: `p${pos.line}`, source: { provider: 'claude', line: pos.line }, output: 'ok' } as ToolEvent);
    },
    end() {},
  }),
});

function run(def: AdapterDefinition, to: OutputFormat, validate?: 'boundary' | 'all') {
  const out: unknown[] = [];
  const diagnostics: Diagnostic[] = [];
  const p = new NormalizePipeline(def, { to, ...(validate ? { validate } : {}) }, { output: (r) => out.push(r), diagnostic: (d) => diagnostics.push(d) });
  ['bash', 'bogus'].forEach((l, i) => p.line(l, { line: i + 1, offset: 0 }));
  const summary = p.end();
  return { out, codes: diagnostics.map((d) => d.code), diagnostics, summary };
}

describe('validation at the trust boundary', () => {
  it('toolnorm\'s own adapters are the ones marked as keeping to the contract', () => {
    expect(ADAPTERS.map((a) => [a.id, a.eventsChecked])).toEqual(ADAPTERS.map((a) => [a.id, true]));
  });

  it('an adapter not marked (a library user\'s) has every event checked on the way in', () => {
    const r = run(adapter(false), 'parts');
    expect(r.summary.invalidEvents).toBe(1);
    // The started event was dropped, so the completion made a placeholder part (still valid).
    expect(r.codes).toEqual(['invalid_event', 'unknown_part']);
    expect((r.out as { id: string; kind: string }[]).map((p) => [p.id, p.kind])).toEqual([['p1', 'bash'], ['p2', 'unknown']]);
  });

  it('a marked adapter is trusted by default, and the broken part is stopped at the edge, with a diagnostic', () => {
    const r = run(adapter(true), 'parts');
    expect(r.summary.invalidEvents).toBe(0);
    expect(r.codes).toEqual(['invalid_frame']);
    expect(r.diagnostics[0]!.message).toMatch(/^part p2 broke the contract and was not sent: \/kind /);
    expect((r.out as { id: string }[]).map((p) => p.id)).toEqual(['p1']);
  });

  it('validate: all checks a marked adapter\'s events too', () => {
    const r = run(adapter(true), 'parts', 'all');
    expect(r.summary.invalidEvents).toBe(1);
    expect(r.codes).toEqual(['invalid_event', 'unknown_part']);
  });

  it('--to events checks each event at its edge', () => {
    const r = run(adapter(true), 'events');
    expect(r.codes).toEqual(['invalid_frame']);
    expect(r.diagnostics[0]!.message).toMatch(/^a tool\.started event for p2 broke the contract/);
    expect((r.out as ToolEvent[]).map((e) => `${e.type} ${e.partId}`)).toEqual(['tool.started p1', 'tool.completed p1', 'tool.completed p2']);
  });

  it('the ACP edge stops the frame of a broken part', () => {
    const r = run(adapter(true), 'acp');
    expect(r.codes.every((c) => c === 'invalid_frame')).toBe(true);
    expect(r.codes.length).toBeGreaterThan(0);
    expect(r.diagnostics.every((d) => d.partId === 'p2')).toBe(true);
  });

  it('refuses an unknown mode', () => {
    expect(() => new NormalizePipeline(adapter(true), { to: 'parts', validate: 'some' as 'all' }, { output: () => {}, diagnostic: () => {} })).toThrow(/validate must be boundary or all/);
  });
});

describe('toolnorm normalize --validate', () => {
  it('prints the same bytes with every event checked as without, on a real recording', async () => {
    for (const to of ['parts', 'acp']) {
      const boundary = await cli(['normalize', '--from', 'claude', '--to', to, '--summary', DEMO]);
      const all = await cli(['normalize', '--from', 'claude', '--to', to, '--summary', '--validate', 'all', DEMO]);
      expect(boundary.code).toBe(0);
      expect(all.code).toBe(0);
      expect(boundary.stdout.length).toBeGreaterThan(1000);
      expect(all.stdout).toBe(boundary.stdout);
      expect(all.stderr).toBe(boundary.stderr);
    }
  });

  it('is a usage error for anything but boundary or all', async () => {
    const r = await cli(['normalize', '--validate', 'some', DEMO]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--validate must be boundary or all, got "some"');
  });
});

describe('the store is a boundary when the pipeline checked nothing', () => {
  const dirOf = () => mkdtempSync(join(tmpdir(), 'toolnorm-validate-'));
  // The second event breaks the contract (a kind no schema allows), as an adapter bug would make it.
  const events = [
    { type: 'tool.started', sessionId: 's', partId: 'p1', source: { provider: 'claude' }, name: 'Bash', kind: 'bash', title: 'Running ls', input: {} },
    { type: 'tool.started', sessionId: 's', partId: 'p2', source: { provider: 'claude' }, name: 'Bash', kind: 'bogus', title: 'Running ls', input: {} },
  ] as unknown as ToolEvent[];

  it('by default the sink hands its batches over unchecked, and the store refuses the broken one: nothing of it is written', async () => {
    const dir = dirOf();
    try {
      const store = new SqliteEventStore(join(dir, 's.db'));
      const sink = new EventStoreSink(store, 'sqlite:s.db');
      for (const e of events) sink.add(e);
      await expect(sink.flush()).rejects.toThrow(/kind/);
      expect(await store.head('s')).toBe(0);
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a sink told its events were checked (--validate all) is trusted, so the store does not check them twice', async () => {
    const dir = dirOf();
    try {
      const store = new SqliteEventStore(join(dir, 's.db'));
      const sink = new EventStoreSink(store, 'sqlite:s.db', true);
      for (const e of events) sink.add(e);
      await sink.flush();
      expect(await store.head('s')).toBe(2);
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('events a library pushes', () => {
  it('are checked by the events adapter: a broken one is reported where it came in and makes no part', () => {
    const live = new LiveNormalizer({ from: 'events' });
    const source = { provider: 'executor' as const };
    const ok = live.push({ type: 'tool.started', sessionId: 's', partId: 'a', at: 1, source, name: 'Bash', kind: 'bash', title: 'Running ls', input: {} });
    expect(ok.map((u) => u.type)).toEqual(['part']);
    const bad = live.push({ type: 'tool.started', sessionId: 's', partId: 'b', at: 1, source, name: 'Bash', kind: 'bogus', title: 'Running ls', input: {} });
    expect(bad).toEqual([expect.objectContaining({ type: 'diagnostic', diagnostic: expect.objectContaining({ code: 'malformed_line', message: expect.stringMatching(/not a valid ToolEvent: \/kind/) }) })]);
    expect(live.liveParts()).toBe(1);
  });
});
