import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { issuesOfAcpSessionUpdateParams, type NormalizedToolPart } from '../../src/contract/index.js';
import { AcpEncoder, encodeParts } from '../../src/acp/encoder.js';
import { decodeFrames } from '../../src/acp/decode.js';
import { reduce } from '../../src/events/reducer.js';
import { emptySessionState, type PartRecord } from '../../src/events/state.js';
import { officialAcpErrors } from '../helpers/acp-schema.js';
import { json, part } from '../helpers/arbitraries.js';
import { metaPatch } from '../../src/acp/wire.js';

const wire = <T>(v: T): T => JSON.parse(JSON.stringify(v));
const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

const STDOUT = 'hello\nred.png\nsample.txt — one line of output that must travel once';
const bash = (output: unknown, extra: Partial<NormalizedToolPart> = {}): NormalizedToolPart => ({
  id: 'toolu_1', name: 'Bash', kind: 'bash', title: 'List files', input: { command: 'ls' }, state: 'complete', output,
  timing: { startedAt: 10, completedAt: 20, elapsedMs: 10 }, metadata: { provider: 'claude', rawType: 'tool_use:Bash', cwd: '/w' }, ...extra,
} as NormalizedToolPart);

function checked(frames: unknown[]): unknown[] {
  const w = wire(frames);
  for (const f of w) {
    expect(officialAcpErrors(f)).toEqual([]);
    expect(issuesOfAcpSessionUpdateParams(f)).toEqual([]);
  }
  return w;
}

describe('each byte once on the wire', () => {
  it('a Claude Bash output ({text, structured.stdout} = the displayed text) travels once, and decodes exactly', () => {
    const p = bash({ text: STDOUT, structured: { stdout: STDOUT, stderr: '', interrupted: false } });
    const frames = checked(encodeParts('s', [p]));
    const text = JSON.stringify(frames);
    expect(occurrences(text, JSON.stringify(STDOUT).slice(1, -1))).toBe(1);
    const last = (frames[1] as { update: Record<string, unknown> }).update;
    expect(last.rawOutput).toEqual({ structured: { stderr: '', interrupted: false } });
    expect((last._meta as { toolnorm: { elided: string[] } }).toolnorm.elided).toEqual(['text', 'structured.stdout']);
    const back = decodeFrames(frames).parts[0]!;
    expect(back).toEqual(p);
    // Key order too: the restored keys are put back first, where they were.
    expect(JSON.stringify((back as { output: unknown }).output)).toBe(JSON.stringify((p as { output: unknown }).output));
  });

  it('leaves rawOutput whole when its text is not what is displayed, or not the first key', () => {
    for (const output of [{ text: 'other', structured: { stdout: STDOUT } }, { exitCode: 0, text: STDOUT }, { text: STDOUT, structured: { stderr: '', stdout: STDOUT } }]) {
      const frames = checked(encodeParts('s', [bash(output)]));
      const last = (frames[1] as { update: Record<string, unknown> }).update;
      const elided = (last._meta as { toolnorm: { elided?: string[] } }).toolnorm.elided ?? [];
      // The displayed text is `output.text`; only a first key is left out.
      expect(elided.includes('text')).toBe(Object.keys(output)[0] === 'text');
      expect(elided).not.toContain('structured.stdout');
      expect(decodeFrames(frames).parts[0]).toEqual(bash(output));
    }
  });

  it('updates carry only the changed sub-keys of timing and metadata; a value that lost a key is sent whole', () => {
    const frames = checked(encodeParts('s', [bash({ text: STDOUT })])) as { update: { _meta: { toolnorm: Record<string, unknown> } } }[];
    expect(frames[0]!.update._meta.toolnorm.timing).toEqual({ startedAt: 10 });
    expect(frames[1]!.update._meta.toolnorm.timing).toEqual({ completedAt: 20, elapsedMs: 10 });
    expect(frames[1]!.update._meta.toolnorm.replaced).toBeUndefined();
    expect(metaPatch({ a: 1, b: 2 }, { a: 1, b: 3, c: 4 })).toEqual({ b: 3, c: 4 });
    expect(metaPatch({ a: 1, b: 2 }, { a: 1 })).toBeUndefined(); // removed key
    expect(metaPatch({ a: 1, b: 2 }, { b: 2, a: 1 })).toBeUndefined(); // order changed
    // Decoding: a patch merges, `replaced` replaces, and the marker is not kept.
    const n = (update: Record<string, unknown>) => ({ sessionId: 's', update: { toolCallId: 't', ...update } });
    const start = n({ sessionUpdate: 'tool_call', title: 'T', name: 'Bash', kind: 'execute', status: 'pending', rawInput: {}, _meta: { toolnorm: { toolName: 'Bash', kind: 'bash', state: 'started', title: 'T', metadata: { provider: 'executor', rawType: 'x', cwd: '/w' } } } });
    const merged = decodeFrames([start, n({ sessionUpdate: 'tool_call_update', _meta: { toolnorm: { metadata: { exitCode: 0 } } } })]).parts[0]!;
    expect(merged.metadata).toEqual({ provider: 'executor', rawType: 'x', cwd: '/w', exitCode: 0 });
    const replaced = decodeFrames([start, n({ sessionUpdate: 'tool_call_update', _meta: { toolnorm: { metadata: { provider: 'executor', rawType: 'x' }, replaced: ['metadata'] } } })]).parts[0]!;
    expect(replaced.metadata).toEqual({ provider: 'executor', rawType: 'x' });
    expect(JSON.stringify(replaced)).not.toContain('replaced');
  });

  it('terminal option: a command shows as display-only terminal content; its output travels once, in _meta.terminal_output', () => {
    const p = bash({ text: STDOUT, structured: { stdout: STDOUT, stderr: '' } }, { metadata: { provider: 'claude', rawType: 'tool_use:Bash', exitCode: 2 } });
    const frames = checked(encodeParts('s', [p], { terminal: true })) as { update: Record<string, unknown> & { _meta: Record<string, unknown> } }[];
    expect(frames[0]!.update.content).toEqual([{ type: 'terminal', terminalId: 'toolu_1' }]);
    expect(frames[0]!.update._meta.terminal_info).toEqual({ terminal_id: 'toolu_1' });
    expect(frames[1]!.update.content).toBeUndefined(); // unchanged: the terminal stays
    expect(frames[1]!.update._meta.terminal_output).toEqual({ terminal_id: 'toolu_1', data: STDOUT });
    expect(frames[1]!.update._meta.terminal_exit).toEqual({ terminal_id: 'toolu_1', exit_code: 2, signal: null });
    expect(occurrences(JSON.stringify(frames), JSON.stringify(STDOUT).slice(1, -1))).toBe(1);
    expect(decodeFrames(frames).parts[0]).toEqual(p);
    // Not a command: content as before.
    const read = { ...p, id: 'r', name: 'Read', kind: 'file_read', title: 'Read a', input: { file_path: '/w/a' } } as NormalizedToolPart;
    const rf = checked(encodeParts('s', [read], { terminal: true })) as { update: Record<string, unknown> }[];
    expect(rf[1]!.update.content).toEqual([{ type: 'content', content: { type: 'text', text: STDOUT } }]);
  });

  it('metadata updates: a key JSON leaves out (undefined) makes no frame, a changed key travels alone', () => {
    const enc = new AcpEncoder();
    const state = reduce(emptySessionState(), { type: 'tool.started', sessionId: 's', partId: 'p', source: { provider: 'executor' }, at: 0, name: 'Bash', kind: 'bash', title: 'Build', input: { command: 'make' }, metadata: { cwd: '/w' } });
    const r = state.parts.get('p')!;
    const { provider } = r.metadata;
    const send = (metadata: Record<string, unknown>) => enc.onPart('s', { ...r, metadata } as PartRecord) as { update: { _meta?: unknown } }[];
    expect(send({ provider, cwd: '/w' })).toHaveLength(1);
    expect(send({ provider, cwd: '/w', gone: undefined })).toEqual([]);
    expect(send({ provider, cwd: '/w' })).toEqual([]);
    expect(send({ provider, cwd: '/x' }).map((f) => f.update._meta)).toEqual([{ toolnorm: { metadata: { cwd: '/x' } } }]);
    // Another key order, but only by a key JSON leaves out: the same JSON.
    expect(send({ gone: undefined, provider, cwd: '/x' })).toEqual([]);
    // Keys in another order than the last sent (`gone` came first) cannot merge: sent whole.
    expect(send({ provider, cwd: '/x', added: 1 }).map((f) => f.update._meta)).toEqual([{ toolnorm: { metadata: { provider, cwd: '/x', added: 1 }, replaced: ['metadata'] } }]);
    expect(send({ provider, cwd: '/x', added: 2 }).map((f) => f.update._meta)).toEqual([{ toolnorm: { metadata: { added: 2 } } }]);
  });

  it('terminal option while streaming: snapshots replace the terminal data, the final output replaces the last snapshot', () => {
    const enc = new AcpEncoder({ terminal: true, snapshotEveryBytes: 1 });
    const env = { sessionId: 's', partId: 'p', source: { provider: 'executor' as const } };
    let state = emptySessionState();
    const out: unknown[] = [];
    const push = (e: Parameters<typeof reduce>[1]) => { state = reduce(state, e); out.push(...enc.onPart('s', state.parts.get('p')!)); };
    push({ type: 'tool.started', ...env, at: 0, name: 'Bash', kind: 'bash', title: 'Build', input: { command: 'make' } });
    push({ type: 'tool.progress', ...env, at: 1, outputDelta: 'step 1\n' });
    push({ type: 'tool.progress', ...env, at: 2, outputDelta: 'step 2\n' });
    push({ type: 'tool.completed', ...env, at: 3, output: { text: 'step 1\nstep 2\n' } });
    const frames = checked(out) as { update: { _meta?: Record<string, { data?: string }> } }[];
    const data = frames.map((f) => f.update._meta?.terminal_output?.data).filter((d) => d !== undefined);
    expect(data).toEqual(['step 1\n', 'step 1\nstep 2\n', 'step 1\nstep 2\n'].slice(0, data.length));
    expect(data[data.length - 1]).toBe('step 1\nstep 2\n');
    const back = decodeFrames(frames).parts[0]!;
    expect(back.state).toBe('complete');
    expect((back as { output: unknown }).output).toEqual({ text: 'step 1\nstep 2\n' });
  });

  it('structured fields that repeat the input, and a failure message that content shows, travel once (fast-check)', () => {
    const long = fc.string({ minLength: 16, maxLength: 40 });
    let elidedInput = 0;
    let elidedMessage = 0;
    fc.assert(
      fc.property(part, long, long, fc.array(json, { minLength: 1, maxLength: 3 }), fc.boolean(), fc.boolean(), (p, a, b, edits, failed, terminal) => {
        fc.pre(!a.includes(b) && !b.includes(a));
        const input = { file_path: '/w/f', old_string: a, new_string: b, edits };
        const base = { ...p, input } as Record<string, unknown>;
        delete base.output;
        delete base.error;
        const q = (failed
          ? { ...base, state: 'error', error: { code: 'tool_error', message: a, details: { b } } }
          : { ...base, state: 'complete', output: { structured: { filePath: '/w/f', oldString: a, edits, newString: b, userModified: false }, text: b } }) as NormalizedToolPart;
        const frames = checked(encodeParts('sess', [q], { terminal }));
        const text = JSON.stringify(frames);
        for (const f of frames as { update: { _meta?: { toolnorm?: { elided?: string[] } } } }[]) {
          for (const e of f.update._meta?.toolnorm?.elided ?? []) { if (e.includes('=')) elidedInput++; if (e.startsWith('error.message')) elidedMessage++; }
        }
        // What the input already carries is not in rawOutput again.
        for (const f of frames as { update: { rawOutput?: unknown } }[]) if (f.update.rawOutput !== undefined) expect(JSON.stringify(f.update.rawOutput)).not.toContain(JSON.stringify(a).slice(1, -1));
        expect(text.length).toBeGreaterThan(0);
        expect(decodeFrames(frames).parts).toEqual(wire([q]));
        expect(JSON.stringify(decodeFrames(frames).parts[0])).toContain(JSON.stringify(wire(failed ? (q as { error: unknown }).error : (q as { output: unknown }).output)));
      }),
      { numRuns: 1_000 },
    );
    expect(elidedInput).toBeGreaterThan(0);
    expect(elidedMessage).toBeGreaterThan(0);
  });

  it('round trip holds with and without terminal content (fast-check, outputs shaped like tool results)', () => {
    const text = fc.string({ maxLength: 30 });
    const shaped = fc.oneof(
      text.chain((t) => fc.record({ text: fc.constant(t), structured: fc.dictionary(fc.constantFrom('stdout', 'stderr', 'x'), fc.oneof(fc.constant(t), json), { maxKeys: 3 }) })),
      text.map((t) => ({ text: t })),
      // Claude shapes, the text not first: Read (numbered lines), Glob (filenames), Task (one block).
      fc.array(fc.string({ maxLength: 8 }), { minLength: 1, maxLength: 4 }).chain((ls) => {
        const t = ls.map((l, i) => `${i > 2 ? '    ' : ''}${i + 1}${i % 2 ? '\u2192' : '\t'}${l}`).join('\n');
        return fc.record({
          structured: fc.record({ a: json, filenames: fc.constant(t.split('\n')), file: fc.record({ filePath: fc.string(), content: fc.oneof(fc.constant(ls.join('\n')), fc.string()), numLines: fc.nat() }, { requiredKeys: ['content'] }), content: fc.constant([{ type: 'text', text: t }]) }, { requiredKeys: [] }),
          text: fc.constant(t),
        });
      }),
      // Glob, truncated: the note after the filenames.
      fc.array(fc.string({ maxLength: 8 }), { minLength: 1, maxLength: 4 }).map((ls) => ({ structured: { filenames: ls, numFiles: ls.length }, text: `${ls.join('\n')}\n(Results are truncated.)` })),
      json,
    );
    const seen = new Set<string>();
    fc.assert(
      fc.property(part, shaped, fc.boolean(), (p, output, terminal) => {
        const q = (p.state === 'complete' ? { ...p, output } : p) as NormalizedToolPart;
        const frames = checked(encodeParts('sess', [q], { terminal }));
        for (const f of frames as { update: { _meta?: { toolnorm?: { elided?: string[] } } } }[]) for (const e of f.update._meta?.toolnorm?.elided ?? []) seen.add(e.replace(/@\d+$/, '@i'));
        const decoded = decodeFrames(frames);
        expect(decoded.diagnostics).toEqual([]);
        expect(decoded.parts).toEqual(wire([q]));
      }),
      { numRuns: 3_000 },
    );
    // The property did exercise every form, in place and at an index.
    for (const e of ['text', 'text@i', 'structured.filenames~head', 'structured.filenames@i', 'structured.file.content@i', 'structured.content@i']) expect(seen).toContain(e);
  });
});

describe('damaged wire markers', () => {
  it('an elided entry that is not a path is ignored, not a crash (found by the ACP fuzz family hugeString)', () => {
    const frames = [
      { sessionId: 's', update: { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Running ls', kind: 'execute', status: 'pending', rawInput: { command: 'ls' }, _meta: { toolnorm: { kind: 'bash', state: 'started', toolName: 'Bash' } } } },
      { sessionId: 's', update: { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'ok' } }], rawOutput: {}, _meta: { toolnorm: { state: 'complete', elided: ['', 7, 'text'] } } } },
    ];
    const decoded = decodeFrames(frames);
    expect(decoded.parts).toHaveLength(1);
    expect((decoded.parts[0] as { output?: unknown }).output).toEqual({ text: 'ok' });
  });
});
