import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { validateAcpSessionUpdateParams, issuesOfAcpSessionUpdateParams, type NormalizedToolPart } from '../../src/contract/index.js';
import { AcpEncoder, encodeParts } from '../../src/acp/encoder.js';
import { decodeFrames } from '../../src/acp/decode.js';
import { collect } from '../../src/pipeline/collect.js';
import { acpAdapter } from '../../src/adapters/acp/index.js';
import { reduce } from '../../src/events/reducer.js';
import { emptySessionState } from '../../src/events/state.js';
import { officialAcpErrors } from '../helpers/acp-schema.js';
import { part } from '../helpers/arbitraries.js';
import { encodePartsV2 } from '../../src/acp/encoder-v2.js';
import { adapterById } from '../../src/adapters/registry.js';
import { NormalizePipeline } from '../../src/outputs/pipeline.js';
import { splitLines } from '../../src/pipeline/collect.js';
import { CORPUS_PROVIDERS, nameOf, readCorpus } from '../helpers/corpus-suite.js';
import { corpusAvailable, corpusFiles } from '../helpers/corpus.js';
import { fixturePath } from '../helpers/golden-cases.js';
import { readFileSync } from 'node:fs';

const wire = <T>(v: T): T => JSON.parse(JSON.stringify(v));

describe('ACP encode/decode (fast-check, 10k parts)', () => {
  it('part → frames → decode gives back an equal part; every frame validates against the official schema and ours', () => {
    let frames = 0;
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 3 }).map((ps) => ps.map((p, i) => ({ ...p, id: `${p.id}#${i}` }) as NormalizedToolPart)), (parts) => {
        const encoded = wire(encodeParts('sess', parts));
        frames += encoded.length;
        for (const f of encoded) {
          expect(officialAcpErrors(f)).toEqual([]);
          expect(issuesOfAcpSessionUpdateParams(f)).toEqual([]);
        }
        expect(encoded[0]!.update.sessionUpdate).toBe('tool_call');
        const decoded = decodeFrames(encoded);
        expect(decoded.diagnostics).toEqual([]);
        expect(decoded.parts).toEqual(wire(parts));
      }),
      { numRuns: 10_000 },
    );
    expect(frames).toBeGreaterThan(10_000);
    // 10k parts through both schemas took 131 s on a 2-core machine at load 18; no assertion on time.
  }, 600_000);

  it('v2: part → encodePartsV2 (with and without terminals) → decodeFrames reads the v2 frames themselves and gives back an equal part', () => {
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 3 }).map((ps) => ps.map((p, i) => ({ ...p, id: `${p.id}#${i}` }) as NormalizedToolPart)), fc.boolean(), (parts, terminal) => {
        const frames = wire(encodePartsV2('sess', parts, { terminal }));
        const decoded = decodeFrames(frames);
        expect(decoded.diagnostics).toEqual([]);
        expect(decoded.parts).toEqual(wire(parts));
      }),
      { numRuns: 2_000 },
    );
  }, 600_000);

  it('our check rejects what the official schema allows but clients strip: a root toolName and kind "bogus"', () => {
    const good = encodeParts('sess', [{ id: 't1', name: 'Bash', kind: 'bash', title: 'List files', input: { command: 'ls' }, state: 'started' }])[0]!;
    const rootField = wire(good) as unknown as { update: Record<string, unknown> };
    rootField.update.toolName = 'Bash';
    const bogus = wire(good) as unknown as { update: Record<string, unknown> };
    bogus.update.kind = 'bogus';
    expect(officialAcpErrors(rootField)).toEqual([]); // the official schema lets it through…
    expect(validateAcpSessionUpdateParams(rootField)).toBe(false); // …ours does not
    expect(issuesOfAcpSessionUpdateParams(rootField)[0]).toMatchObject({ keyword: 'additionalProperties', instancePath: '/update' });
    expect(officialAcpErrors(bogus).length).toBeGreaterThan(0);
    expect(issuesOfAcpSessionUpdateParams(bogus)[0]).toMatchObject({ keyword: 'enum', instancePath: '/update/kind' });
  });

  it('streams output as throttled tail snapshots: frame bytes grow linearly, not quadratically, with output size', () => {
    const run = (lines: number) => {
      const enc = new AcpEncoder();
      let state = emptySessionState();
      let bytes = 0;
      let frames = 0;
      const env = { sessionId: 's', partId: 'p', source: { provider: 'executor' as const } };
      const push = (e: Parameters<typeof reduce>[1]) => {
        state = reduce(state, e);
        for (const f of enc.onPart('s', state.parts.get('p')!)) { bytes += JSON.stringify(f).length; frames++; }
      };
      push({ type: 'tool.started', ...env, at: 0, name: 'Bash', kind: 'bash', title: 'Build', input: { command: 'make' } });
      for (let i = 0; i < lines; i++) push({ type: 'tool.progress', ...env, at: i, outputDelta: `line ${i} of the build output, long enough to matter\n` });
      return { bytes, frames };
    };
    const small = run(3_500);
    const big = run(35_000);
    // Ten times the output must cost about ten times the bytes (re-sending it whole would be ~100×).
    expect(big.bytes / small.bytes).toBeLessThan(15);
    expect(big.frames).toBeLessThan(35_000 / 10);
  });
});

// A hand-written stream in the shape claude-agent-acp 0.101 sends (docs/providers/acp.md#how-claude-agent-acp-sends-claude-code-calls): Bash with the
// raw command as title, Task as `think` with its description, a child Read stamped with
// `_meta.claudeCode.parentToolUseId`, an MCP call titled with the raw name and kind `other`, a failed
// Edit, and WebSearch as `fetch`.
const n = (update: Record<string, unknown>) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'sess-cc', update } });
const CLAUDE_AGENT_ACP = [
  n({ sessionUpdate: 'tool_call', toolCallId: 'toolu_bash', title: 'npm test', kind: 'execute', status: 'pending', name: 'Bash', rawInput: { command: 'npm test', description: 'Run tests' }, _meta: { claudeCode: { toolName: 'Bash' } } }),
  n({ sessionUpdate: 'tool_call_update', toolCallId: 'toolu_bash', status: 'in_progress', _meta: { claudeCode: { toolResponse: { elapsedTimeSeconds: 2 } } } }),
  n({ sessionUpdate: 'tool_call_update', toolCallId: 'toolu_bash', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: '```console\n3 passed\n```' } }], rawOutput: '3 passed', _meta: { claudeCode: { toolName: 'Bash' } } }),
  n({ sessionUpdate: 'tool_call', toolCallId: 'toolu_task', title: 'Explore the auth module', kind: 'think', status: 'pending', name: 'Task', rawInput: { description: 'Explore the auth module', prompt: 'Find where tokens are checked' }, _meta: { claudeCode: { toolName: 'Task' } } }),
  n({ sessionUpdate: 'tool_call', toolCallId: 'toolu_read', title: 'Read src/auth.ts', kind: 'read', status: 'pending', name: 'Read', locations: [{ path: '/repo/src/auth.ts', line: 1 }], rawInput: { file_path: '/repo/src/auth.ts' }, _meta: { claudeCode: { toolName: 'Read', parentToolUseId: 'toolu_task' } } }),
  n({ sessionUpdate: 'tool_call_update', toolCallId: 'toolu_read', status: 'completed', rawOutput: 'export function check() {}', _meta: { claudeCode: { toolName: 'Read', parentToolUseId: 'toolu_task' } } }),
  n({ sessionUpdate: 'tool_call_update', toolCallId: 'toolu_task', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'Tokens are checked in src/auth.ts' } }] }),
  n({ sessionUpdate: 'tool_call', toolCallId: 'toolu_mcp', title: 'mcp__github__create_issue', kind: 'other', status: 'pending', name: 'mcp__github__create_issue', rawInput: { title: 'Bug' }, _meta: { claudeCode: { toolName: 'mcp__github__create_issue' } } }),
  n({ sessionUpdate: 'tool_call_update', toolCallId: 'toolu_mcp', status: 'completed', rawOutput: [{ type: 'text', text: 'created #12' }] }),
  n({ sessionUpdate: 'tool_call', toolCallId: 'toolu_edit', title: 'Edit src/auth.ts', kind: 'edit', status: 'pending', name: 'Edit', content: [{ type: 'diff', path: '/repo/src/auth.ts', oldText: 'a', newText: 'b' }], locations: [{ path: '/repo/src/auth.ts' }], rawInput: { file_path: '/repo/src/auth.ts', old_string: 'a', new_string: 'b' }, _meta: { claudeCode: { toolName: 'Edit' } } }),
  n({ sessionUpdate: 'tool_call_update', toolCallId: 'toolu_edit', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: '```\nString to replace not found in file.\n```' } }] }),
  n({ sessionUpdate: 'tool_call', toolCallId: 'toolu_ws', title: 'Search "acp tool calls"', kind: 'fetch', status: 'pending', name: 'WebSearch', rawInput: { query: 'acp tool calls' }, _meta: { claudeCode: { toolName: 'WebSearch' } } }),
  n({ sessionUpdate: 'tool_call', toolCallId: 'toolu_term', title: 'make', kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId: 'term-1' }], rawInput: { command: 'make' } }),
  n({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Done.' } }),
];

const EXPECTED = [
  { id: 'toolu_bash', name: 'Bash', kind: 'bash', title: 'npm test', state: 'complete' },
  { id: 'toolu_task', name: 'Task', kind: 'subagent', title: 'Explore the auth module', state: 'complete' },
  { id: 'toolu_read', name: 'Read', kind: 'file_read', title: 'Read src/auth.ts', state: 'complete', parentId: 'toolu_task' },
  { id: 'toolu_mcp', name: 'create_issue', kind: 'mcp', title: 'Create issue (github)', state: 'complete', mcp: { server: 'github', tool: 'create_issue' } },
  { id: 'toolu_edit', name: 'Edit', kind: 'file_edit', title: 'Edit src/auth.ts', state: 'error', error: 'String to replace not found in file.' },
  { id: 'toolu_ws', name: 'WebSearch', kind: 'web_search', title: 'Search "acp tool calls"', state: 'started' },
  { id: 'toolu_term', name: 'execute', kind: 'bash', title: 'make', state: 'running' },
];

describe("decoding another agent's frames (claude-agent-acp shape)", () => {
  const check = (parts: NormalizedToolPart[]) => {
    expect(parts.map((p) => ({ id: p.id, name: p.name, kind: p.kind, title: p.title, state: p.state }))).toEqual(EXPECTED.map(({ id, name, kind, title, state }) => ({ id, name, kind, title, state })));
    const byId = Object.fromEntries(parts.map((p) => [p.id, p]));
    expect(byId.toolu_read!.metadata?.parentId).toBe('toolu_task');
    expect(byId.toolu_bash!.metadata?.parentId).toBeUndefined();
    expect(byId.toolu_mcp!.metadata?.mcp).toEqual({ server: 'github', tool: 'create_issue' });
    expect(byId.toolu_edit!.state === 'error' && byId.toolu_edit!.error.message).toBe('String to replace not found in file.');
    expect(byId.toolu_bash!.state === 'complete' && byId.toolu_bash!.output).toBe('3 passed');
    expect(byId.toolu_task!.state === 'complete' && byId.toolu_task!.output).toEqual({ text: 'Tokens are checked in src/auth.ts' });
    for (const p of parts) expect(p.metadata?.provider).toBe('acp');
    // The diff the Edit was announced with and the locations stay in the part after its failure replaced the content.
    expect(byId.toolu_edit!.metadata?.acp).toEqual({ content: [{ type: 'diff', path: '/repo/src/auth.ts', oldText: 'a', newText: 'b' }], locations: [{ path: '/repo/src/auth.ts' }] });
    expect(byId.toolu_read!.metadata?.acp).toEqual({ locations: [{ path: '/repo/src/auth.ts', line: 1 }] });
    expect(byId.toolu_term!.metadata?.acp).toEqual({ content: [{ type: 'terminal', terminalId: 'term-1' }] });
    expect(byId.toolu_bash!.metadata?.acp).toBeUndefined();
  };

  it('decodeFrames yields the documented kinds, titles, states and parents', () => {
    const d = decodeFrames(CLAUDE_AGENT_ACP);
    expect(d.diagnostics).toEqual([]);
    check(d.parts);
  });

  it('--from acp (events through the shared reducer) yields the same parts', () => {
    const r = collect(acpAdapter, CLAUDE_AGENT_ACP.map((f) => JSON.stringify(f)).join('\n'));
    expect(r.diagnostics).toEqual([]);
    check(r.parts);
    expect(acpAdapter.sniff({ lines: [JSON.stringify(CLAUDE_AGENT_ACP[0])] })).toBeGreaterThan(0.5);
  });
});

// The round trips of issue 32 on every corpus recording: parts → v1 → parts and parts → v2 →
// parts, each with and without display terminals, read back both by `--from acp` (the input
// adapter, events through the reducer) and by the library's `decodeFrames`; then v1 → v2 → v1 and
// v2 → v1 → v2. Frames come from the streaming pipeline, as `normalize --to acp` prints them.
const VARIANTS = [
  { acpVersion: 1, acpTerminal: false },
  { acpVersion: 1, acpTerminal: true },
  { acpVersion: 2, acpTerminal: false },
  { acpVersion: 2, acpTerminal: true },
] as const;
const recordings: [string, string][] = corpusAvailable() ? CORPUS_PROVIDERS.flatMap((p) => corpusFiles(p, (f) => /\.(jsonl|json|sse)$/.test(f)).map((rel) => [rel, p] as [string, string])) : [];

function pipelineFrames(provider: string, rel: string, options: { acpVersion: 1 | 2; acpTerminal: boolean }): unknown[] {
  const frames: unknown[] = [];
  const name = nameOf(rel);
  const p = new NormalizePipeline(adapterById(provider)!, { to: 'acp', ...options }, { output: (r) => frames.push(r), diagnostic: () => {} });
  p.beginFile(name);
  for (const [i, l] of splitLines(readCorpus(rel)).entries()) p.line(l.text, { line: i + 1, offset: l.offset, file: name });
  p.endFile(name);
  p.end();
  return wire(frames);
}

/** Parts in id order (the pipeline prints frames in event order, the collector by session). */
const sorted = (ps: readonly NormalizedToolPart[]) => wire([...ps].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
const jsonLines = (frames: readonly unknown[]) => `${frames.map((f) => JSON.stringify(f)).join('\n')}\n`;
/** Every session's parts encoded again, v1 or v2 (in session order, as decodeFrames lists them). */
const reencode = (sessions: Map<string, NormalizedToolPart[]>, v: 1 | 2): unknown[] => wire([...sessions].flatMap(([id, ps]): unknown[] => (v === 1 ? encodeParts(id, ps) : encodePartsV2(id, ps))));

const totals = { parts: 0, terminalFrames: 0, bashParts: 0 };
describe.skipIf(!recordings.length)('round trips on every corpus recording', () => {
  it.each(recordings)('%s: parts → v1 / v2, with and without terminals → parts is exact, by --from acp and by decodeFrames', (rel, provider) => {
    const parts = sorted(collect(adapterById(provider)!, [{ name: nameOf(rel), text: readCorpus(rel) }]).parts);
    totals.parts += parts.length;
    totals.bashParts += parts.filter((p) => p.kind === 'bash').length;
    for (const v of VARIANTS) {
      const frames = pipelineFrames(provider, rel, v);
      totals.terminalFrames += frames.filter((f) => /"terminal_(update|output)"/.test(JSON.stringify(f))).length;
      const read = collect(acpAdapter, jsonLines(frames));
      expect(read.diagnostics, JSON.stringify(v)).toEqual([]);
      expect(sorted(read.parts), JSON.stringify(v)).toEqual(parts);
      const decoded = decodeFrames(frames);
      expect(decoded.diagnostics, JSON.stringify(v)).toEqual([]);
      expect(sorted(decoded.parts), JSON.stringify(v)).toEqual(parts);
    }
  });

  it.each(recordings)('%s: v1 → v2 → v1 and v2 → v1 → v2 give the same frames', (rel, provider) => {
    for (const terminal of [false, true]) {
      const fromV1 = decodeFrames(pipelineFrames(provider, rel, { acpVersion: 1, acpTerminal: terminal })).sessions;
      const v1 = reencode(fromV1, 1);
      expect(reencode(decodeFrames(reencode(fromV1, 2)).sessions, 1)).toEqual(v1);
      const fromV2 = decodeFrames(pipelineFrames(provider, rel, { acpVersion: 2, acpTerminal: terminal })).sessions;
      const v2 = reencode(fromV2, 2);
      expect(reencode(decodeFrames(reencode(fromV2, 1)).sessions, 2)).toEqual(v2);
    }
  });

  it('is not vacuous: the recordings hold hundreds of parts, bash calls among them, and the terminal runs send terminal frames', () => {
    console.log(`[acp round trips] ${recordings.length} recordings, ${totals.parts} parts (${totals.bashParts} bash), ${totals.terminalFrames} terminal frames`);
    expect(totals.parts).toBeGreaterThan(200);
    expect(totals.bashParts).toBeGreaterThan(50);
    expect(totals.terminalFrames).toBeGreaterThan(totals.bashParts);
  });
});

describe('v2 terminals come after the call that ends: the end waits for them', () => {
  const rel = 'codex/public/rollout040-shell-plan-aborted.jsonl';
  it.skipIf(!recordings.length)('the output is read from the terminal_update that follows the last tool_call_update; without those frames (control) the bash outputs come back short', () => {
    const parts = sorted(collect(adapterById('codex')!, [{ name: nameOf(rel), text: readCorpus(rel) }]).parts);
    const frames = pipelineFrames('codex', rel, { acpVersion: 2, acpTerminal: true });
    const ended = collect(acpAdapter, jsonLines(frames));
    // The end event itself carries the output: the reducer takes no output after the end.
    const bash = parts.filter((p) => p.kind === 'bash' && p.state === 'complete');
    expect(bash.length).toBeGreaterThan(20);
    for (const p of bash.slice(0, 20)) {
      const done = ended.events.find((e) => e.partId === p.id && e.type === 'tool.completed') as { output?: unknown } | undefined;
      expect(done?.output, p.id).toEqual(p.state === 'complete' ? p.output : undefined);
    }
    const withoutTerminals = collect(acpAdapter, jsonLines(frames.filter((f) => !JSON.stringify(f).includes('"terminal_update"'))));
    const short = sorted(withoutTerminals.parts).filter((p, i) => JSON.stringify(p) !== JSON.stringify(parts[i]));
    expect(short.length).toBeGreaterThanOrEqual(bash.length);
  });
});

describe('decodeFrames on another agent\'s v2 frames (fixtures/acp/peer-v2, claude-agent-acp 0.101.0)', () => {
  const frames = readFileSync(fixturePath('acp/peer-v2', 'peer-v2.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
  it('reads upserts and terminal_update output and exit: 0 diagnostics; without the terminal frames (control) the output is gone', () => {
    const d = decodeFrames(frames);
    expect(d.diagnostics).toEqual([]);
    const bash = d.parts.find((p) => p.id === 'toolu_mock001_0')!;
    expect([bash.state, bash.state === 'complete' && bash.output, bash.metadata?.exitCode]).toEqual(['complete', { text: 'hello\nred.png\nsample.txt' }, 0]);
    const failed = d.parts.find((p) => p.id === 'toolu_mock007_0')!;
    expect([failed.state === 'error' && failed.error.code, failed.metadata?.exitCode]).toEqual(['exit_nonzero', 3]);
    const stripped = decodeFrames(frames.filter((f) => !JSON.stringify(f).includes('"terminal_update"')));
    const bare = stripped.parts.find((p) => p.id === 'toolu_mock001_0')!;
    expect([bare.state === 'complete' && bare.output, bare.metadata?.exitCode]).toEqual([undefined, undefined]);
  });

  it('a frame that is neither an update nor the version exchange is reported, not skipped', () => {
    expect(decodeFrames([{ jsonrpc: '2.0', id: 9, result: {} }]).diagnostics.map((d) => d.code)).toEqual(['not_a_session_update']);
  });
});
