// The compressed/full choice as every consumer sees it: projector, ACP encoder, UI mapping and the
// streaming normalize pipeline. `full` is the default everywhere; `compressed` shows the summary.
import { describe, expect, it } from 'vitest';
import type { AcpToolCall, AcpToolCallUpdate, NormalizedToolPart, ToolEvent, ToolOutputCompressedEvent, UiToolPart } from '../../src/contract/index.js';
import { DeclarativeCompressor } from '../../src/compress/index.js';
import { reduceAll } from '../../src/events/reducer.js';
import { emptySessionState, type PartRecord } from '../../src/events/state.js';
import { projectPart } from '../../src/events/projector.js';
import { AcpEncoder, encodeParts, type AcpFrame } from '../../src/acp/encoder.js';
import { decodeFrames } from '../../src/acp/decode.js';
import { toUiPart } from '../../src/ui/to-ui.js';
import { NormalizePipeline } from '../../src/outputs/pipeline.js';
import { eventsAdapter } from '../../src/adapters/events/index.js';
import { officialAcpErrors } from '../helpers/acp-schema.js';

const SID = 's-views';
const PID = 'toolu_views';
const FULL = Array.from({ length: 35_000 }, (_, i) => `line ${i}: ${'x'.repeat(i % 40)}`).join('\n');
const OUTPUT = { text: FULL, structured: { stdout: FULL, stderr: '', interrupted: false } };

const started: ToolEvent = { type: 'tool.started', sessionId: SID, partId: PID, at: 1, source: { provider: 'claude' }, name: 'Bash', kind: 'bash', title: 'Run seq', input: { command: 'seq 35000' } };
const completed: ToolEvent = { type: 'tool.completed', sessionId: SID, partId: PID, at: 2, source: { provider: 'claude' }, output: OUTPUT };

function compressedEvent(): ToolOutputCompressedEvent {
  const record = reduceAll([started, completed], emptySessionState()).parts.get(PID)!;
  const event = new DeclarativeCompressor().compressPart(projectPart(record), { sessionId: SID, provider: 'claude', seq: 2, at: 3 });
  if (!event) throw new Error('the default Claude Bash spec should compress a 35,000-line output');
  return event;
}

const EVENT = compressedEvent();
const SHORT = (EVENT.output as { text: string }).text;
const RECORD: PartRecord = reduceAll([started, completed, EVENT], emptySessionState()).parts.get(PID)!;

const textsOf = (frames: AcpFrame[]) =>
  frames.flatMap((f) => ((f.update as AcpToolCall | AcpToolCallUpdate).content ?? []).flatMap((c) => (c.type === 'content' && c.content.type === 'text' ? [c.content.text] : [])));
const rawOutputsOf = (frames: AcpFrame[]) => frames.map((f) => (f.update as AcpToolCall).rawOutput).filter((r) => r !== undefined);

describe('compressed and full views', () => {
  it('the default Claude Bash spec cut the output to 30,000 bytes', () => {
    expect(Buffer.byteLength(SHORT)).toBeLessThanOrEqual(30_000);
    expect(SHORT).toMatch(/\.\.\. \[\d+ lines truncated\] \.\.\./);
    expect(EVENT.compression.stats.specId).toBe('claude-bash');
    // The structured copy of stdout would carry the full text past the budget: it is a size marker.
    const structured = (EVENT.output as { structured: Record<string, unknown> }).structured;
    expect(structured.stdout).toMatch(/^\[omitted by toolnorm: \d+ bytes; the full value is in the original event\]$/);
    expect(Object.keys(structured)).toEqual(Object.keys(OUTPUT.structured as object));
  });

  it('the projector shows the full output by default and the summary on request', () => {
    expect((projectPart(RECORD) as { output: unknown }).output).toEqual(OUTPUT);
    expect((projectPart(RECORD, { output: 'full' }) as { output: unknown }).output).toEqual(OUTPUT);
    expect((projectPart(RECORD, { output: 'compressed' }) as { output: unknown }).output).toEqual(EVENT.output);
    for (const view of ['full', 'compressed'] as const) expect(projectPart(RECORD, { output: view }).metadata?.compression).toEqual(EVENT.compression);
  });

  it('the ACP encoder sends the view it is configured for, in valid frames', () => {
    for (const [view, text] of [['compressed', SHORT], ['full', FULL]] as const) {
      const frames = new AcpEncoder({ output: view }).onPart(SID, RECORD);
      expect(frames.map((f) => officialAcpErrors(f))).toEqual(frames.map(() => []));
      expect(textsOf(frames)).toEqual([text]);
      // rawOutput leaves out what content shows (each byte once on the wire); decoding restores the view.
      expect(rawOutputsOf(frames)).toHaveLength(1);
      expect((decodeFrames(frames).parts[0] as { output?: unknown }).output).toEqual(view === 'full' ? OUTPUT : EVENT.output);
      const meta = (frames[0]!.update as AcpToolCall)._meta?.toolnorm as { metadata?: { compression?: unknown } };
      expect(meta.metadata?.compression).toEqual(EVENT.compression);
    }
    const encoded = encodeParts(SID, [projectPart(RECORD, { output: 'compressed' })]);
    expect(textsOf(encoded)).toEqual([SHORT]);
  });

  it('the UI mapping shows whichever view was projected', () => {
    expect(toUiPart(projectPart(RECORD, { output: 'compressed' })).output).toEqual(EVENT.output);
    expect(toUiPart(projectPart(RECORD)).output).toEqual(OUTPUT);
  });

  it('the normalize pipeline honours --output for parts, ui and acp', () => {
    const lines = [started, completed, EVENT].map((e) => JSON.stringify(e));
    const run = (to: 'parts' | 'ui' | 'acp', output?: 'full' | 'compressed') => {
      const out: unknown[] = [];
      const p = new NormalizePipeline(eventsAdapter, { to, ...(output ? { output } : {}), jsonRpc: false }, { output: (r) => out.push(r), diagnostic: (d) => out.push({ diagnostic: d }) });
      lines.forEach((l, i) => p.line(l, { line: i + 1, offset: 0 }));
      p.end();
      return out;
    };
    expect((run('parts')[0] as NormalizedToolPart & { output: unknown }).output).toEqual(OUTPUT);
    expect((run('parts', 'compressed')[0] as { output: unknown }).output).toEqual(EVENT.output);
    expect((run('ui', 'compressed')[0] as UiToolPart).output).toEqual(EVENT.output);
    expect((run('ui', 'full')[0] as UiToolPart).output).toEqual(OUTPUT);
    const acpShort = run('acp', 'compressed') as AcpFrame[];
    const acpFull = run('acp', 'full') as AcpFrame[];
    expect(textsOf(acpShort).at(-1)).toBe(SHORT);
    expect(textsOf(acpFull).at(-1)).toBe(FULL);
    // Streaming ACP sends each change as it is reduced: the completed frame (full text) precedes
    // the derived event, whose frame then replaces the content with the summary.
    expect(textsOf(acpFull)).not.toContain(SHORT);
  });
});
