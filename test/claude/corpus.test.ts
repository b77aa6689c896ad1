// Every file of ../shared/corpus/claude, alone (through the shared corpus runner), and the captured
// transcript with its subagent files together: counts checked against an independent raw scan
// (test/helpers/scan-claude.ts).
import { describe, expect, it } from 'vitest';
import { collect } from '../../src/pipeline/collect.js';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { validateNormalizedToolPart, type NormalizedToolPart } from '../../src/contract/index.js';
import { corpusSuite, nameOf, readCorpus as read } from '../helpers/corpus-suite.js';
import { scan } from '../helpers/scan-claude.js';

function checkInvariants(parts: NormalizedToolPart[], texts: string[]) {
  const raw = scan(texts);
  // One part per distinct tool_use id, and exactly those ids.
  expect(parts.length).toBe(raw.uses.size);
  expect(new Set(parts.map((p) => p.id))).toEqual(new Set(raw.uses.keys()));
  for (const p of parts) {
    expect(validateNormalizedToolPart(p), `${p.id} validates`).toBe(true);
    // Every call whose result is in the input ended.
    if (raw.results.has(p.id)) expect(['complete', 'error'], p.id).toContain(p.state);
    expect(p.kind, `${p.id} (${raw.uses.get(p.id)}) has a known kind`).not.toBe('unknown');
    expect(p.title.trim(), p.id).not.toBe('');
    expect(p.title, p.id).not.toBe(p.name);
    expect(p.title, p.id).not.toBe(raw.uses.get(p.id));
  }
  // Error count equals the is_error results.
  const errored = parts.filter((p) => p.state === 'error').map((p) => p.id);
  expect(new Set(errored)).toEqual(raw.errors);
  return raw;
}

const { available, recordings: files } = corpusSuite({
  provider: 'claude',
  adapter: claudeAdapter,
  isRecording: (n) => n.endsWith('.jsonl') || n.endsWith('.json'),
  checks: {
    'normalizes with counts matching the raw file': ({ rel, text, r }) => {
      expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const raw = checkInvariants(r.parts, [text]);
      // The counts are not vacuous for the session files.
      if (rel.endsWith('.jsonl')) expect(raw.uses.size).toBeGreaterThan(0);
    },
  },
});

describe.skipIf(!available)('claude corpus', () => {
  it('has the files this suite expects', () => {
    expect(files.filter((f) => f.includes('/public/')).length).toBeGreaterThanOrEqual(5);
    expect(files.filter((f) => f.includes('/captured/')).length).toBeGreaterThanOrEqual(8);
  });

  it('links the captured subagent transcript to its Agent call, with or without the .meta.json', () => {
    const main = 'claude/captured/transcript-2.1.332-all-tools.filtered.jsonl';
    const sub = 'claude/captured/transcript-2.1.332-subagent-agent-a9eb076ac095ef555.filtered.jsonl';
    const metaFile = 'claude/captured/transcript-2.1.332-subagent-agent-a9eb076ac095ef555.meta.json';
    const orders = [[main, sub, metaFile], [sub, metaFile, main], [sub, main], [metaFile, sub]];
    for (const order of orders) {
      const r = collect(claudeAdapter, order.map((rel) => ({ name: nameOf(rel), text: read(rel) })));
      checkInvariants(r.parts, order.map(read));
      const children = r.parts.filter((p) => p.id.startsWith('toolu_mock010_'));
      expect(children, order.join(' + ')).toHaveLength(2);
      for (const c of children) expect(c.metadata?.parentId, order.join(' + ')).toBe('toolu_mock009_0');
      expect(r.diagnostics, order.join(' + ')).toEqual([]);
    }
  });

  it('links stream-json subagent calls by parent_tool_use_id and Task by task_started', () => {
    const r = collect(claudeAdapter, [{ name: 'x', text: read('claude/captured/streamjson-2.1.332-all-tools.jsonl') }]);
    const agent = r.parts.find((p) => p.id === 'toolu_mock009_0')!;
    expect(agent.metadata).toMatchObject({ childSessionId: 'a9eb076ac095ef555', task: { taskId: 'a9eb076ac095ef555', status: 'completed', type: 'local_agent' } });
    expect(r.parts.filter((p) => p.metadata?.parentId === 'toolu_mock009_0').map((p) => p.id)).toEqual(['toolu_mock010_0', 'toolu_mock010_1']);
  });

  it('links 1.0.108 inline sidechains and 2.1.38 agent_progress copies to their Task', () => {
    const v1 = collect(claudeAdapter, read('claude/public/ccviewer-v1.0.108-multiedit-task.jsonl')).parts;
    const raw = read('claude/public/ccviewer-v1.0.108-multiedit-task.jsonl').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    // Independently: the tool_use ids on sidechain lines, grouped by the Task whose prompt opens the sidechain.
    const sidechainUses = raw.filter((l) => l.isSidechain === true && l.type === 'assistant').flatMap((l) => ((l.message as { content: { type: string; id?: string }[] }).content).filter((b) => b.type === 'tool_use').map((b) => b.id!));
    expect(sidechainUses.length).toBeGreaterThan(0);
    for (const id of sidechainUses) expect(['toolu_014YF9TXhDRR7BnpasNJ7gjC', 'toolu_01LKfUwrsnof18CpWZQcJH44'], id).toContain(v1.find((p) => p.id === id)!.metadata?.parentId);
    const mainUses = raw.filter((l) => l.isSidechain === false && l.type === 'assistant').flatMap((l) => ((l.message as { content: { type: string; id?: string }[] }).content).filter((b) => b.type === 'tool_use').map((b) => b.id!));
    for (const id of mainUses) expect(v1.find((p) => p.id === id)!.metadata?.parentId, id).toBeUndefined();

    const text238 = read('claude/public/spotter-2.1.38-websearch-askuser-plan.jsonl');
    const v238 = collect(claudeAdapter, text238).parts;
    // Independently: tool_use ids inside agent_progress lines, with the parentToolUseID of the line.
    const progress = text238.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>).filter((l) => l.type === 'progress' && l.data?.type === 'agent_progress');
    const nestedUses = progress.flatMap((l) => ((l.data.message?.message?.content ?? []) as { type: string; id?: string }[]).filter((b) => b.type === 'tool_use').map((b) => [b.id!, l.parentToolUseID as string] as const));
    expect(nestedUses.length).toBeGreaterThan(0);
    for (const [id, parent] of nestedUses) expect(v238.find((p) => p.id === id)!.metadata?.parentId, id).toBe(parent);
  });
});
