// The one output path: every format is a stream encoder over the pipeline's events and parts, the
// same encoder whichever command prints it (normalize, replay, record, the library), with the
// contract check at its edge, and no second live path beside it.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventsAdapter } from '../../src/adapters/events/index.js';
import { collect } from '../../src/pipeline/collect.js';
import { encodeFinalParts, partsEncoder, type StreamEncoderFactory } from '../../src/pipeline/encoder.js';
import { NormalizePipeline as StreamPipeline } from '../../src/pipeline/normalize.js';
import { encoderFor, NormalizePipeline, type OutputFormat } from '../../src/outputs/pipeline.js';
import { acpStreamEncoder } from '../../src/acp/stream.js';
import { AcpEncoder } from '../../src/acp/encoder.js';
import { isEncodedFormat, loadEncoder } from '../../src/cli/encoders.js';
import { issuesOfAcpSessionUpdateParams, type Diagnostic, type NormalizedToolPart } from '../../src/contract/index.js';
import { cli } from '../helpers/cli.js';
import { LIFECYCLES_NDJSON } from '../helpers/lifecycles.js';

const dir = mkdtempSync(join(tmpdir(), 'toolnorm-one-path-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every format, with the flags that shape it, as CLI flags and as pipeline options. */
const FORMATS: [OutputFormat, string[], { acpVersion?: 1 | 2; uiStates?: 'canonical' }][] = [
  ['parts', [], {}],
  ['events', [], {}],
  ['acp', [], {}],
  ['acp', ['--acp-version', '2'], { acpVersion: 2 }],
  ['ui', ['--ui-states', 'canonical'], { uiStates: 'canonical' }],
  ['ai-sdk', [], {}],
  ['ai-sdk-stream', [], {}],
  ['ag-ui', [], {}],
  ['otel', [], {}],
];

const ndjson = (records: unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');
const encoderOf = async (to: OutputFormat) => (isEncodedFormat(to) ? { encoder: await loadEncoder(to, {}) } : {});

/** The library's pipeline on the same input: records as the CLI would print them. */
async function library(to: OutputFormat, options: (typeof FORMATS)[number][2]): Promise<string> {
  const out: unknown[] = [];
  const p = new NormalizePipeline(eventsAdapter, { to, ...options, ...(await encoderOf(to)) }, { output: (r) => out.push(r), diagnostic: () => {} });
  p.beginFile('-');
  LIFECYCLES_NDJSON.split('\n').filter(Boolean).forEach((l, i) => p.line(l, { line: i + 1, offset: 0 }));
  p.endFile('-');
  p.end();
  return ndjson(out);
}

describe('one output path', () => {
  it('normalize prints, byte for byte, what the library pipeline gives, in every format', async () => {
    for (const [to, flags, options] of FORMATS) {
      const r = await cli(['normalize', '--from', 'events', '--to', to, ...flags, '--quiet', '-'], { stdin: LIFECYCLES_NDJSON });
      expect(r.code, `${to} ${flags.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout.length, to).toBeGreaterThan(0);
      expect(r.stdout, `${to} ${flags.join(' ')}`).toBe(await library(to, options));
    }
  });

  it('replay prints what the same encoders give for the stored session\'s final parts; parts, ui and ai-sdk are normalize\'s records', async () => {
    const store = `sqlite:${join(dir, 'replay.db')}`;
    expect((await cli(['normalize', '--from', 'events', '--store', store, '--quiet', '-'], { stdin: LIFECYCLES_NDJSON })).code).toBe(0);
    const parts = collect(eventsAdapter, LIFECYCLES_NDJSON).sessions.get('s1')!;
    expect(parts.length).toBeGreaterThan(3);
    for (const [to, flags, options] of FORMATS) {
      if (to === 'events') continue;
      const replayed = await cli(['replay', '--store', store, '--session', 's1', '--to', to, ...flags]);
      expect(replayed.code, `${to}: ${replayed.stderr}`).toBe(0);
      const out: unknown[] = [];
      encodeFinalParts(encoderFor(to, { ...options, ...(await encoderOf(to)) }), [['s1', parts]], { output: (r) => out.push(r), diagnostic: () => {} });
      expect(replayed.stdout, `${to} ${flags.join(' ')}`).toBe(ndjson(out));
    }
    // Formats that print each part once, final: the same records as normalize, in first-seen order
    // instead of completion order.
    for (const [to, flags] of FORMATS.filter(([t]) => t === 'parts' || t === 'ui' || t === 'ai-sdk')) {
      const key = (l: string) => String((JSON.parse(l) as { id?: string; toolCallId?: string }).id ?? (JSON.parse(l) as { toolCallId?: string }).toolCallId);
      const lines = (s: string) => s.split('\n').filter(Boolean).filter((l) => (JSON.parse(l) as { sessionId?: string }).sessionId === undefined || (JSON.parse(l) as { sessionId?: string }).sessionId === 's1');
      const replayed = lines((await cli(['replay', '--store', store, '--session', 's1', '--to', to, ...flags])).stdout);
      const normalized = lines((await cli(['normalize', '--from', 'events', '--to', to, ...flags, '--quiet', '-'], { stdin: LIFECYCLES_NDJSON })).stdout).filter((l) => parts.some((p) => p.id === key(l)));
      expect(replayed.sort((a, b) => key(a).localeCompare(key(b))), to).toEqual(normalized.sort((a, b) => key(a).localeCompare(key(b))));
    }
  });

  it('an ACP frame that breaks the contract is not sent: an invalid_frame diagnostic names it, and the valid frames go on (control: the same part encoded without the edge check gives the invalid frame)', () => {
    const good: NormalizedToolPart = { id: 'ok', name: 'Read', kind: 'file_read', title: 'Reading a.txt', input: { path: 'a.txt' }, state: 'complete', output: 'hi' } as NormalizedToolPart;
    // A title must be a string: an encoder fed such a part would send a frame clients blank.
    const bad = { ...good, id: 'bad', title: 42 } as unknown as NormalizedToolPart;
    const unchecked = new AcpEncoder().encodePart('s', bad);
    expect(unchecked.some((f) => issuesOfAcpSessionUpdateParams(f).length > 0)).toBe(true);

    const out: { params: { update: { toolCallId: string; sessionUpdate: string } } }[] = [];
    const diagnostics: Diagnostic[] = [];
    encodeFinalParts(acpStreamEncoder(), [['s', [bad, good]]], { output: (r) => out.push(r as never), diagnostic: (d) => diagnostics.push(d) });
    // The bad part's tool_call (it carries the title) is held back; its outcome update is valid and goes.
    expect(out.map((f) => `${f.params.update.sessionUpdate} ${f.params.update.toolCallId}`)).toEqual(['tool_call_update bad', 'tool_call ok', 'tool_call_update ok']);
    for (const f of out) expect(issuesOfAcpSessionUpdateParams(f.params)).toEqual([]);
    expect(diagnostics.map((d) => [d.code, d.partId])).toEqual([['invalid_frame', 'bad']]);
    expect(diagnostics[0]!.message).toMatch(/an ACP tool_call frame for bad broke the contract and was not sent: \/update\/title/);
  });

  it('no hidden second live path: an encoder beside a built-in format is refused; the pipeline writes through exactly one encoder', () => {
    const sinks = { output: () => {}, diagnostic: () => {} };
    const observer: StreamEncoderFactory = () => ({ change: () => {}, final: () => {} });
    // `--to events` plus an observer was the live normalizer's mode once.
    expect(() => new NormalizePipeline(eventsAdapter, { to: 'events', encoder: observer }, sinks)).toThrow(/options\.encoder is for the encoded formats .*--to events has its own/);
    // Control: the same encoder where it belongs, as the output of an encoded format.
    expect(() => new NormalizePipeline(eventsAdapter, { to: 'ai-sdk', encoder: observer }, sinks)).not.toThrow();
    // The pipeline itself knows only its own records; another format needs its encoder.
    expect(() => new StreamPipeline(eventsAdapter, { to: 'acp' }, sinks)).toThrow(/--to acp needs its encoder/);
    const printed: unknown[] = [];
    const p = new StreamPipeline(eventsAdapter, { encoder: partsEncoder }, { output: (r) => printed.push(r), diagnostic: () => {} });
    LIFECYCLES_NDJSON.split('\n').filter(Boolean).forEach((l, i) => p.line(l, { line: i + 1, offset: 0 }));
    p.end();
    expect(printed).toHaveLength(p.summary.parts);
  });
});
