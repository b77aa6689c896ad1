// ACP v2 (draft) output: every frame validates against the SDK's schema/v2, a v2 client's state
// decodes back to the parts, and v1 → v2 → v1 gives the same v1 frames.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { NormalizedToolPart } from '../../src/contract/index.js';
import { encodeParts } from '../../src/acp/encoder.js';
import { encodePartsV2 } from '../../src/acp/encoder-v2.js';
import { fileChange } from '../../src/substance/index.js';
import { decodeFrames } from '../../src/acp/decode.js';
import { NormalizePipeline } from '../../src/outputs/pipeline.js';
import { splitLines, collect } from '../../src/pipeline/collect.js';
import { adapterById } from '../../src/adapters/registry.js';
import { officialAcpV2Errors } from '../helpers/acp-schema-v2.js';
import { officialAcpErrors, paramsOf } from '../helpers/acp-schema.js';
import { mergeV2, v1Snapshot } from '../helpers/acp-v2-client.js';
import { part } from '../helpers/arbitraries.js';
import { expectedName, inputsOf, listedCases, readCase, readManifest } from '../helpers/golden-cases.js';
import { join } from 'node:path';
import { corpusInputs, corpusPath, normalizeTo } from '../helpers/ecosystem.js';
import { readFileSync } from 'node:fs';

const wire = <T>(v: T): T => JSON.parse(JSON.stringify(v));
// The v2 SessionUpdate union ends in a catch-all for unknown update types, so a frame must also
// be one of the updates toolnorm means to send (v1's `tool_call` passes the schema only as unknown).
const SENT = new Set(['tool_call_update', 'terminal_update', 'plan_update']);

function checkedV2(frames: readonly unknown[]): unknown[] {
  const w = wire(frames) as unknown[];
  for (const f of w) {
    const p = paramsOf(f) as { update: { sessionUpdate: string } };
    expect(officialAcpV2Errors(p), JSON.stringify(p).slice(0, 300)).toEqual([]);
    expect(SENT.has(p.update.sessionUpdate), p.update.sessionUpdate).toBe(true);
  }
  return w;
}

const backToParts = (frames: readonly unknown[]) => {
  const d = decodeFrames(v1Snapshot(mergeV2(frames)));
  expect(d.diagnostics).toEqual([]);
  return d.parts;
};

describe('ACP v2 frames (fast-check)', () => {
  it('every frame validates against schema/v2, and what a v2 client stores decodes back to the parts', () => {
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 3 }).map((ps) => ps.map((p, i) => ({ ...p, id: `${p.id}#${i}` }) as NormalizedToolPart)), fc.boolean(), (parts, terminal) => {
        const frames = checkedV2(encodePartsV2('sess', parts, { terminal }));
        expect(backToParts(frames)).toEqual(wire(parts));
      }),
      { numRuns: 2_000 },
    );
  }, 600_000);

  it('the check is not vacuous: v1 frames with a diff fail schema/v2, and a v1 tool_call passes only as an unknown update', () => {
    // metadata.files by hand, as the adapters fill it for an exact-string edit.
    const edit: NormalizedToolPart = { id: 'e1', name: 'Edit', kind: 'file_edit', title: 'Edit a.ts', input: { file_path: '/w/a.ts', old_string: 'a\n', new_string: 'b\n' }, state: 'complete', output: { text: 'ok' }, metadata: { files: [fileChange({ path: '/w/a.ts', operation: 'modify', oldText: 'a\n', newText: 'b\n' })] } };
    const v1 = wire(encodeParts('s', [edit]));
    expect(officialAcpErrors(v1[0])).toEqual([]);
    // The same frame as an upsert (what a v2 client would have to read it as) fails on the diff.
    expect(officialAcpV2Errors({ ...v1[0]!, update: { ...v1[0]!.update, sessionUpdate: 'tool_call_update' } }).join('\n')).toMatch(/changes/);
    const started = wire(encodeParts('s', [{ ...edit, input: {}, metadata: {}, state: 'started' } as NormalizedToolPart]))[0]!;
    expect(officialAcpV2Errors(started)).toEqual([]); // passes… as the catch-all
    expect(SENT.has(started.update.sessionUpdate)).toBe(false);
    const v2 = checkedV2(encodePartsV2('s', [edit])) as { update: Record<string, unknown> }[];
    expect(v2.map((f) => f.update.sessionUpdate)).toEqual(['tool_call_update', 'tool_call_update']);
    expect(v2[0]!.update.content).toEqual([{ type: 'diff', changes: [{ operation: 'modify', path: '/w/a.ts' }], patch: { format: 'git_patch', text: 'diff --git /w/a.ts /w/a.ts\n--- /w/a.ts\n+++ /w/a.ts\n@@ -1 +1 @@\n-a\n+b\n' } }]);
  });

  it('cancelled and interrupted calls are `cancelled`; other failures stay `failed`', () => {
    const failed = (code: string): NormalizedToolPart => ({ id: code, name: 'Bash', kind: 'bash', title: 'sleep 9', input: { command: 'sleep 9' }, state: 'error', error: { message: 'stopped', code } });
    const status = (code: string) => (checkedV2(encodePartsV2('s', [failed(code)])) as { update: { status?: string } }[]).map((f) => f.update.status).filter(Boolean).pop();
    expect(status('interrupted')).toBe('cancelled');
    expect(status('cancelled')).toBe('cancelled');
    expect(status('denied')).toBe('failed');
    expect(status('exit_nonzero')).toBe('failed');
    // v1 has no cancelled: the same part is `failed` there, the reason in _meta.toolnorm.error.code.
    expect(encodeParts('s', [failed('interrupted')]).map((f) => (f.update as { status?: string }).status).pop()).toBe('failed');
  });

  it('a part with metadata.plan is also a plan_update with the session\'s entries (cancelled kept), sent again only when they change', () => {
    // By hand: metadata.plan as the adapters fill it (src/substance toolPlan); the input is not read.
    const todo: NormalizedToolPart = { id: 't1', name: 'TodoWrite', kind: 'todo', title: 'Update plan', input: {}, state: 'complete', output: { text: 'ok' }, metadata: { plan: { entries: [{ content: 'Run probe', status: 'in_progress', activeForm: 'Running' }, { content: 'Ship', status: 'pending', priority: 'high' }, { content: 'Drop', status: 'cancelled' }] } } };
    const frames = checkedV2(encodePartsV2('s', [todo, { ...todo, id: 't2' }])) as { update: Record<string, unknown> }[];
    const plans = frames.filter((f) => f.update.sessionUpdate === 'plan_update');
    expect(plans).toEqual([{ sessionId: 's', update: { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 's', entries: [{ content: 'Run probe', priority: 'medium', status: 'in_progress' }, { content: 'Ship', priority: 'high', status: 'pending' }, { content: 'Drop', priority: 'medium', status: 'cancelled' }] }, _meta: { toolnorm: { partId: 't1' } } } }]);
    expect(mergeV2(frames).plans.get('s')).toHaveLength(3);
    // Control: the same part without metadata.plan, even with a provider todo list as input, sends no plan.
    expect(encodePartsV2('s', [{ ...todo, input: { todos: [{ content: 'a', status: 'pending' }] }, metadata: {} } as NormalizedToolPart]).some((f) => f.update.sessionUpdate === 'plan_update')).toBe(false);
  });

  it('terminal option: the output is a v2 terminal_update (base64, replacing), the exit its exitStatus; nothing under _meta.terminal_*', () => {
    const out = 'hello\nwörld\n';
    const p: NormalizedToolPart = { id: 'b1', name: 'Bash', kind: 'bash', title: 'ls', input: { command: 'ls' }, state: 'complete', output: { text: out }, metadata: { provider: 'claude', rawType: 'tool_use:Bash', exitCode: 3, command: { command: 'ls', exitCode: 3 } } };
    const frames = checkedV2(encodePartsV2('s', [p], { terminal: true })) as { update: Record<string, unknown> }[];
    const terms = frames.filter((f) => f.update.sessionUpdate === 'terminal_update').map((f) => f.update);
    expect(terms[0]).toEqual({ sessionUpdate: 'terminal_update', terminalId: 'b1', command: 'ls' });
    expect(terms[1]).toEqual({ sessionUpdate: 'terminal_update', terminalId: 'b1', output: { data: Buffer.from(out).toString('base64') }, exitStatus: { exitCode: 3, signal: null } });
    expect(JSON.stringify(frames)).not.toMatch(/terminal_(info|output|exit)/);
    // The call announces the terminal first; the terminal's state follows it.
    expect(frames.map((f) => f.update.sessionUpdate)).toEqual(['tool_call_update', 'terminal_update', 'tool_call_update', 'terminal_update']);
    expect(frames[0]!.update.content).toEqual([{ type: 'terminal', terminalId: 'b1' }]);
    expect(backToParts(frames)).toEqual([p]);
  });

  it('_meta.toolnorm is sent whole on every update that changes it (v2 patches _meta by top-level key, no nested merge)', () => {
    const p: NormalizedToolPart = { id: 'r1', name: 'Read', kind: 'file_read', title: 'Read a', input: { file_path: '/w/a' }, state: 'complete', output: { text: 'x' }, timing: { startedAt: 1, completedAt: 5, elapsedMs: 4 }, metadata: { provider: 'claude', rawType: 'tool_use:Read' } };
    const v1 = encodeParts('s', [p]) as { update: { _meta?: { toolnorm?: Record<string, unknown> } } }[];
    expect(v1[1]!.update._meta!.toolnorm!.timing).toEqual({ completedAt: 5, elapsedMs: 4 }); // v1: the changed sub-keys
    const v2 = encodePartsV2('s', [p]) as { update: { _meta?: { toolnorm?: Record<string, unknown> } } }[];
    expect(v2[1]!.update._meta!.toolnorm).toMatchObject({ toolName: 'Read', kind: 'file_read', state: 'complete', timing: { startedAt: 1, completedAt: 5, elapsedMs: 4 }, metadata: { provider: 'claude', rawType: 'tool_use:Read' } });
    // Control: a client applying v2's rule to the v1 frames loses startedAt.
    expect(mergeV2(v1.map((f) => ({ ...f, update: { ...f.update, sessionUpdate: 'tool_call_update' } }))).calls.get('r1')!.meta.toolnorm).toMatchObject({ timing: { completedAt: 5, elapsedMs: 4 } });
    expect((mergeV2(v1.map((f) => ({ ...f, update: { ...f.update, sessionUpdate: 'tool_call_update' } }))).calls.get('r1')!.meta.toolnorm as { timing: object }).timing).not.toHaveProperty('startedAt');
  });
});

const manifest = readManifest();
const cases = listedCases(manifest).map((id) => readCase(id));

/** The streaming pipeline's v2 output for a golden case (as `normalize --to acp --acp-version 2`). */
function v2FramesOf(from: string, inputs: { name: string; text: string }[], options: object, terminal: boolean): unknown[] {
  const frames: unknown[] = [];
  const p = new NormalizePipeline(adapterById(from)!, { to: 'acp', acpVersion: 2, acpTerminal: terminal, ...options }, { output: (r) => frames.push(r), diagnostic: () => {} });
  for (const f of inputs) {
    p.beginFile(f.name);
    for (const [i, l] of splitLines(f.text).entries()) p.line(l.text, { line: i + 1, offset: l.offset, file: f.name });
    p.endFile(f.name);
  }
  p.end();
  return frames;
}

describe('ACP v2 on every fixture', () => {
  const goldens = cases.flatMap((c) => c.goldens.map((g) => [`${c.id}/${g.name}`, c, g] as const));
  it.each(goldens)('%s: v2 frames validate (with and without terminals) and decode back to the parts; v1 → v2 → v1 is stable', (_n, c, g) => {
    const parts = wire(collect(adapterById(c.from)!, inputsOf(c, g), g.options).parts);
    for (const terminal of [false, true]) {
      const frames = checkedV2(v2FramesOf(c.from, inputsOf(c, g), g.options, terminal));
      expect(frames.length).toBeGreaterThan(0);
      expect(backToParts(frames)).toEqual(parts);
    }
    // v1 → v2 → v1: the golden v1 frames, decoded, encoded as v2, read back by a v2 client and
    // encoded as v1 again give the same v1 frames.
    const v1 = JSON.parse(readFileSync(join(c.dir, expectedName(g, 'acp')), 'utf8')) as unknown[];
    const fromV1 = decodeFrames(v1).parts;
    const viaV2 = backToParts(checkedV2(encodePartsV2('s', fromV1)));
    expect(wire(encodeParts('s', viaV2))).toEqual(wire(encodeParts('s', fromV1)));
  });
});

describe('--acp-version', () => {
  it('accepts 1 and 2 only, as a usage error naming the value; 1 is the default and prints v1 frames', async () => {
    const { cli } = await import('../helpers/cli.js');
    const file = join(listedCases(manifest).map((id) => readCase(id)).find((c) => c.id === 'codex/exec-tools-plan')!.dir, 'exec-tools-plan.jsonl');
    for (const cmd of [['normalize', '--to', 'acp', '--acp-version', '3', file], ['replay', '--session', 's', '--to', 'acp', '--acp-version', 'v2']]) {
      const r = await cli(cmd);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--acp-version must be 1 or 2, got "(3|v2)"/);
    }
    const v1 = await cli(['normalize', '--to', 'acp', '--quiet', file]);
    expect((v1.lines[0] as { params: { update: { sessionUpdate: string } } }).params.update.sessionUpdate).toBe('tool_call');
    expect(await cli(['normalize', '--to', 'acp', '--quiet', '--acp-version', '1', file])).toEqual(v1);
  });
});

const files = corpusInputs();
describe.skipIf(!files.length)('ACP v2 on every corpus recording', () => {
  it.each(files)('%s: normalize --to acp --acp-version 2 validates against schema/v2 and decodes back to --to parts', async (rel) => {
    const parts = await normalizeTo('parts', corpusPath(rel));
    const frames = checkedV2(await normalizeTo('acp', corpusPath(rel), ['--acp-version', '2']));
    expect(frames.length).toBeGreaterThanOrEqual(parts.length);
    // Parts are printed in retirement order, frames in event order: compared by id.
    const byId = (ps: unknown[]) => new Map((ps as { id: string }[]).map((p) => [p.id, p]));
    const back = byId(backToParts(frames));
    expect(back.size).toBe((parts as unknown[]).length);
    for (const [id, p] of byId(parts)) expect(back.get(id), id).toEqual(p);
    const term = checkedV2(await normalizeTo('acp', corpusPath(rel), ['--acp-version', '2', '--acp-terminal']));
    expect(term.length).toBeGreaterThanOrEqual(parts.length);
  }, 120_000);
});
