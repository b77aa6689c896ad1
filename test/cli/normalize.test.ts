import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isNormalizedToolPart, isUiToolPart, type ToolEvent } from '../../src/contract/index.js';
import { eventsAdapter } from '../../src/adapters/events/index.js';
import { NormalizePipeline } from '../../src/pipeline/normalize.js';
import { officialAcpErrors, paramsOf } from '../helpers/acp-schema.js';
import { cli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'toolnorm-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = (partId: string, at: number) => ({ sessionId: 's1', partId, at, source: { provider: 'executor' as const } });
const EVENTS: ToolEvent[] = [
  { type: 'tool.started', ...env('p1', 1000), name: 'bash', kind: 'bash', title: 'List files', input: { command: 'ls' } },
  { type: 'tool.progress', ...env('p1', 1100), outputDelta: 'a\n' },
  { type: 'tool.completed', ...env('p1', 1500), output: { text: 'a\nb\n' } },
  { type: 'tool.started', ...env('p2', 1600), name: 'file_read', kind: 'file_read', title: 'Reading a.txt', input: { path: 'a.txt' } },
  { type: 'tool.failed', ...env('p2', 1700), error: { message: 'no such file', code: 'not_found' } },
  { type: 'tool.started', ...env('p3', 1800), name: 'bash', kind: 'bash', title: 'Sleep', input: { command: 'sleep 9' } },
];
const file = join(dir, 'events.ndjson');
writeFileSync(file, `${EVENTS.map((e) => JSON.stringify(e)).join('\n')}\nnot json\n{"type":"tool.started"}\n\n`);

describe('toolnorm CLI', () => {
  it('--help prints usage with every command', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['normalize', 'exec', 'compress', 'replay', 'sessions']) expect(r.stdout).toContain(`  ${c}`);
    expect((await cli(['normalize', '--help'])).stdout).toContain('--from');
    expect((await cli(['frobnicate'])).code).toBe(2);
  });

  it('normalize --from events prints each part once in its final state, diagnostics on stderr, and a reconciling --summary', async () => {
    const r = await cli(['normalize', '--from', 'events', '--summary', file]);
    expect(r.code).toBe(0);
    expect(r.lines.map((p) => `${(p as { id: string }).id}:${(p as { state: string }).state}`)).toEqual(['p1:complete', 'p2:error', 'p3:started']);
    for (const p of r.lines) expect(isNormalizedToolPart(p)).toBe(true);
    const errLines = r.stderr.trim().split('\n').map((l) => JSON.parse(l));
    const summary = errLines.at(-1);
    expect(summary).toEqual({ inputLines: 9, eventLines: 6, noToolDataLines: 1, diagnosticLines: 2, events: 6, parts: 3, byKind: { bash: 2, file_read: 1 }, byState: { complete: 1, error: 1, started: 1 }, diagnostics: 2, malformedLines: 2, invalidEvents: 0 });
    expect(errLines.slice(0, -1).map((d) => `${d.code}@${d.source.line}`)).toEqual(['malformed_line@7', 'malformed_line@8']);
  });

  it('exits 1 with --strict when there are diagnostics, 1 on an unreadable input, 2 on bad usage', async () => {
    expect((await cli(['normalize', '--from', 'events', '--strict', file])).code).toBe(1);
    const missing = await cli(['normalize', '--from', 'events', join(dir, 'nope.jsonl')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nope.jsonl: no such file or directory');
    expect((await cli(['normalize', '--to', 'xml', file])).code).toBe(2);
    expect((await cli(['normalize', '--from', 'gemini', file])).code).toBe(2);
  });

  it('reads stdin with -, and auto-detects toolnorm events', async () => {
    const r = await cli(['normalize', '-'], { stdin: EVENTS.map((e) => JSON.stringify(e)).join('\n') });
    expect(r.code).toBe(0);
    expect(r.lines).toHaveLength(3);
  });

  it('--to ui uses legacy state names, --ui-states canonical the seed names', async () => {
    const legacy = await cli(['normalize', '--from', 'events', '--to', 'ui', file]);
    expect(legacy.lines.map((p) => (p as { state: string }).state)).toEqual(['output-available', 'output-error', 'calling']);
    for (const p of legacy.lines) expect(isUiToolPart(p)).toBe(true);
    expect((legacy.lines[1] as { errorText: string }).errorText).toBe('no such file');
    const canonical = await cli(['normalize', '--from', 'events', '--to', 'ui', '--ui-states', 'canonical', file]);
    expect(canonical.lines.map((p) => (p as { state: string }).state)).toEqual(['complete', 'error', 'started']);
  });

  it('--to acp prints JSON-RPC session/update notifications that validate against the official schema', async () => {
    const r = await cli(['normalize', '--from', 'events', '--to', 'acp', file]);
    expect(r.code).toBe(0);
    expect(r.lines.length).toBeGreaterThanOrEqual(6);
    for (const f of r.lines) {
      expect((f as { method: string }).method).toBe('session/update');
      expect(officialAcpErrors(paramsOf(f))).toEqual([]);
    }
    expect((r.lines[0] as { params: { update: { sessionUpdate: string } } }).params.update.sessionUpdate).toBe('tool_call');
  });
});

describe('streaming pipeline', () => {
  it('holds only in-flight parts: memory does not grow with input size', () => {
    const printed: unknown[] = [];
    const p = new NormalizePipeline(eventsAdapter, { to: 'parts', retireAfterEvents: 50 }, { output: (r) => printed.push(r), diagnostic: () => {} });
    let maxLive = 0;
    for (let i = 0; i < 20_000; i++) {
      const id = `p${i}`;
      p.line(JSON.stringify({ type: 'tool.started', ...env(id, i), name: 'bash', kind: 'bash', title: 'Run', input: {} }), { line: 2 * i + 1, offset: 0 });
      p.line(JSON.stringify({ type: 'tool.completed', ...env(id, i + 1), output: 'ok' }), { line: 2 * i + 2, offset: 0 });
      maxLive = Math.max(maxLive, p.liveParts());
    }
    const summary = p.end();
    expect(maxLive).toBeLessThanOrEqual(52);
    // Each part once, in the order it finished: the retirement queue is compacted several times on the way.
    expect((printed as { id: string }[]).map((x) => x.id)).toEqual(Array.from({ length: 20_000 }, (_, i) => `p${i}`));
    expect(summary.parts).toBe(20_000);
  });

  it('reports an event for a part that was already printed instead of dropping it silently', () => {
    const diagnostics: { code: string }[] = [];
    const p = new NormalizePipeline(eventsAdapter, { to: 'parts', retireAfterEvents: 1 }, { output: () => {}, diagnostic: (d) => diagnostics.push(d) });
    const lines = [
      { type: 'tool.started', ...env('a', 0), name: 'bash', kind: 'bash', title: 'Run', input: {} },
      { type: 'tool.completed', ...env('a', 1), output: 'ok' },
      { type: 'tool.started', ...env('b', 2), name: 'bash', kind: 'bash', title: 'Run', input: {} },
      { type: 'tool.completed', ...env('a', 3), output: 'again' },
    ];
    lines.forEach((l, i) => p.line(JSON.stringify(l), { line: i + 1, offset: 0 }));
    const s = p.end();
    expect(diagnostics.map((d) => d.code)).toEqual(['late_event']);
    expect(s.events + s.diagnostics).toBe(lines.length);
  });
});

describe('progress bar', () => {
  it('draws on a TTY stderr for inputs over 8 MB, never on a pipe, and never with --quiet', async () => {
    const { PassThrough, Readable } = await import('node:stream');
    const { runCli } = await import('../../src/cli/run.js');
    const big = join(dir, 'big.ndjson');
    const line = JSON.stringify({ ...EVENTS[0], partId: 'x', input: { command: 'y'.repeat(1000) } });
    writeFileSync(big, `${`${line}\n`.repeat(9000)}`);
    const run = async (tty: boolean, quiet = false) => {
      const stderr = new PassThrough() as InstanceType<typeof PassThrough> & { isTTY?: boolean };
      stderr.isTTY = tty;
      let err = '';
      stderr.on('data', (c) => { err += c; });
      const stdout = new PassThrough();
      stdout.resume();
      const code = await runCli({ argv: ['normalize', '--from', 'events', ...(quiet ? ['--quiet'] : []), big], stdin: Readable.from(['']), stdout, stderr, env: process.env, cwd: process.cwd() });
      return { code, err };
    };
    const tty = await run(true);
    expect(tty.code).toBe(0);
    expect(tty.err).toMatch(/\[#+\s*\] 100%/);
    expect((await run(false)).err).not.toMatch(/\] +\d+%/);
    // --quiet leaves only errors on stderr: the same TTY run draws nothing.
    const quiet = await run(true, true);
    expect([quiet.code, quiet.err]).toEqual([0, '']);
  });
});

describe('auto-detection on long inputs', () => {
  it('reads every line after the detection sample (no line lost to the sniffing)', async () => {
    const long = join(dir, 'long.ndjson');
    const lines: string[] = [];
    for (let i = 0; i < 500; i++) lines.push(JSON.stringify({ type: 'tool.started', ...env(`q${i}`, i), name: 'bash', kind: 'bash', title: 'Run', input: {} }));
    writeFileSync(long, `${lines.join('\n')}\n`);
    const r = await cli(['normalize', '--summary', long]);
    expect(r.lines).toHaveLength(500);
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!)).toMatchObject({ inputLines: 500, events: 500, parts: 500 });
  });
});

describe('normalize --output compressed', () => {
  it('compresses big outputs inline: no ACP frame ever carries the full text, the events keep it', async () => {
    const big = Array.from({ length: 5000 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n');
    const e = (partId: string, at: number) => ({ sessionId: 'c1', partId, at, source: { provider: 'claude' as const } });
    const input = join(dir, 'big-output.ndjson');
    writeFileSync(input, [
      { type: 'tool.started', ...e('b1', 0), name: 'Bash', kind: 'bash', title: 'Build', input: { command: 'make' } },
      { type: 'tool.completed', ...e('b1', 5), output: { text: big } },
    ].map((x) => JSON.stringify(x)).join('\n'));
    const acp = await cli(['normalize', '--from', 'events', '--to', 'acp', '--output', 'compressed', input]);
    expect(acp.code).toBe(0);
    expect(acp.stdout).not.toContain('line 2500 ');
    expect(acp.stdout.length).toBeLessThan(big.length);
    for (const f of acp.lines) expect(officialAcpErrors(paramsOf(f))).toEqual([]);
    const last = acp.lines.at(-1) as { params: { update: { _meta?: { toolnorm?: { metadata?: { compression?: { stats: { specId: string } } } } } } } };
    expect(last.params.update._meta?.toolnorm?.metadata?.compression?.stats.specId).toBe('claude-bash');
    const events = await cli(['normalize', '--from', 'events', '--to', 'events', '--output', 'compressed', input]);
    expect(events.lines.map((x) => (x as { type: string }).type)).toEqual(['tool.started', 'tool.completed', 'tool.output.compressed']);
    expect((events.lines[1] as { output: { text: string } }).output.text).toBe(big);
    const full = await cli(['normalize', '--from', 'events', '--to', 'acp', input]);
    expect(full.stdout).toContain('line 2500 ');
  });
});

describe('retirement across sessions', () => {
  it('drops final parts of sessions that have ended while other sessions go on', () => {
    const p = new NormalizePipeline(eventsAdapter, { to: 'parts', retireAfterEvents: 10 }, { output: () => {}, diagnostic: () => {} });
    let maxLive = 0;
    for (let i = 0; i < 2_000; i++) {
      const e = (type: string, at: number, extra: object) => JSON.stringify({ type, sessionId: `sess-${i}`, partId: 'p', at, source: { provider: 'executor' }, ...extra });
      p.line(e('tool.started', i, { name: 'bash', kind: 'bash', title: 'Run', input: {} }), { line: 1, offset: 0 });
      p.line(e('tool.completed', i + 1, { output: 'ok' }), { line: 2, offset: 0 });
      maxLive = Math.max(maxLive, p.liveParts());
    }
    expect(p.end().parts).toBe(2_000);
    expect(maxLive).toBeLessThanOrEqual(12);
  });
});
