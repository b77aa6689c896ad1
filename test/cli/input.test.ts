// Issue 16, input and accounting: stdin is read when piped (the demo only on a terminal), the format
// is told per file so one run mixes providers, a directory's non-recordings are skipped with one
// diagnostic each, every input line is accounted for, and a wrong --from is never silent.
import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { runCli } from '../../src/cli/run.js';
import { DEMO_INPUT } from '../../src/cli/commands/normalize.js';
import { isNormalizedToolPart } from '../../src/contract/index.js';
import { cli } from '../helpers/cli.js';
import { CORPUS, corpusAvailable, corpusFiles } from '../helpers/corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'toolnorm-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HAS_CORPUS = corpusAvailable();
const CLAUDE = join(CORPUS, 'claude/public/ccviewer-v1.0.108-multiedit-task.jsonl');
const CODEX = join(CORPUS, 'codex/public/exec046-command.jsonl');
const RECORDING = /\.(jsonl|json|sse|ndjson)$/;

interface Summary { inputLines: number; eventLines: number; noToolDataLines: number; diagnosticLines: number; parts: number; diagnostics: number }
const diagnosticsOf = (stderr: string) => stderr.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { code: string; severity: string; message: string; source?: { file?: string } });
const summaryOf = (stderr: string) => diagnosticsOf(stderr).at(-1) as unknown as Summary;
const codes = (stderr: string) => diagnosticsOf(stderr).slice(0, -1).map((d) => d.code);

/** Runs normalize with stdin flagged as a terminal or not. */
async function withStdin(argv: string[], stdin: string, tty: boolean) {
  const input = Readable.from([stdin]) as Readable & { isTTY?: boolean };
  if (tty) input.isTTY = true;
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (c) => { out += c; });
  const stderr = new PassThrough();
  stderr.resume();
  const code = await runCli({ argv, stdin: input, stdout, stderr, env: process.env, cwd: process.cwd() });
  return { code, parts: out.split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

describe('stdin and the demo', () => {
  it('with no FILE and a piped stdin, normalizes stdin: exit 0, the piped parts, not the demo', async () => {
    const demo = await cli(['normalize', DEMO_INPUT]);
    expect(demo.lines).toHaveLength(18);
    const piped = readFileSync(DEMO_INPUT, 'utf8').split('\n').slice(0, 8).join('\n');
    const fromPipe = await withStdin(['normalize'], piped, false);
    expect(fromPipe.code).toBe(0);
    // Exactly what the same 8 lines give as a file, none of the demo's 18.
    const asFile = join(dir, 'piped.jsonl');
    writeFileSync(asFile, piped);
    const expected = await cli(['normalize', asFile]);
    expect(expected.lines.length).toBeGreaterThan(0);
    expect(expected.lines.length).toBeLessThan(18);
    expect(fromPipe.parts).toEqual(expected.lines);
    for (const p of fromPipe.parts) expect(isNormalizedToolPart(p)).toBe(true);
    // An empty pipe is an empty input: exit 0, 0 parts.
    expect(await withStdin(['normalize'], '', false)).toEqual({ code: 0, parts: [] });
  });

  it('with no FILE and stdin a terminal, runs the built-in demo: exit 0, 18 parts', async () => {
    const r = await withStdin(['normalize'], '', true);
    expect(r.code).toBe(0);
    expect(r.parts).toHaveLength(18);
  });
});

describe.skipIf(!HAS_CORPUS)('format per file', () => {
  it('a Codex file after a Claude file yields its parts: parts = the sum of each file alone, exit 0', async () => {
    const claude = await cli(['normalize', CLAUDE]);
    const codex = await cli(['normalize', CODEX]);
    expect(claude.lines).toHaveLength(21);
    expect(codex.lines).toHaveLength(1);
    const both = await cli(['normalize', '--summary', CLAUDE, CODEX]);
    expect(both.code).toBe(0);
    expect(both.lines).toHaveLength(22);
    expect(both.lines.filter((p) => (p as { metadata?: { provider?: string } }).metadata?.provider === 'codex')).toHaveLength(1);
    expect(summaryOf(both.stderr)).toMatchObject({ parts: 22, diagnostics: 0 });
    // And the other way round, through one stdin stream per format: still every part.
    const reversed = await cli(['normalize', CODEX, CLAUDE]);
    expect(reversed.lines).toHaveLength(22);
  });

  it('stdin is one stream, its format told once from its first lines: exit 0, 1 Codex part', async () => {
    const r = await cli(['normalize', '-'], { stdin: readFileSync(CODEX, 'utf8') });
    expect(r.code).toBe(0);
    expect(r.lines).toHaveLength(1);
  });

  it('in a directory, a README that sorts first and a script that sorts later are skipped with one not_a_recording each; the run goes on: exit 0, 21 + 1 parts', async () => {
    const d = join(dir, 'mixed');
    mkdirSync(d);
    writeFileSync(join(d, 'AAA-README.md'), '# Recordings\n\nThese are sessions.\n');
    copyFileSync(CLAUDE, join(d, 'b-claude.jsonl'));
    copyFileSync(CODEX, join(d, 'c-codex.jsonl'));
    writeFileSync(join(d, 'd-run.sh'), '#!/bin/sh\nset -e\nclaude -p "hello" --output-format stream-json\necho done\n');
    const r = await cli(['normalize', '--summary', d]);
    expect(r.code).toBe(0);
    expect(r.lines).toHaveLength(22);
    const skipped = diagnosticsOf(r.stderr).filter((x) => x.code === 'not_a_recording');
    expect(skipped.map((x) => x.severity)).toEqual(['warning', 'warning']);
    expect(skipped[0]!.message).toMatch(/AAA-README\.md was skipped/);
    expect(skipped[1]!.message).toMatch(/d-run\.sh was skipped/);
    expect(codes(r.stderr)).toEqual(['not_a_recording', 'not_a_recording']);
    // Even under --from: a file no format knows is skipped whole, not reported line by line.
    const forced = await cli(['normalize', '--from', 'claude', '--summary', d]);
    expect(codes(forced.stderr).filter((c) => c === 'not_a_recording')).toHaveLength(2);
    expect(codes(forced.stderr)).not.toContain('malformed_line');
    // --strict makes the skipped files count: exit 1.
    expect((await cli(['normalize', '--strict', d])).code).toBe(1);
  });

  it('a skipped file stays in the line account: its lines are diagnostic lines, so the three terms still add up to inputLines', async () => {
    const d = join(dir, 'account');
    mkdirSync(d);
    // Longer than the 20-line sample the format is told from: the rest is read, only counted.
    writeFileSync(join(d, 'AAA-notes.md'), `${Array.from({ length: 30 }, (_, i) => `note ${i}`).join('\n')}\n`);
    writeFileSync(join(d, 'AAB-short.txt'), 'one line\n');
    copyFileSync(CODEX, join(d, 'c-codex.jsonl'));
    const codexLines = readFileSync(CODEX, 'utf8').trimEnd().split('\n').length;
    const r = await cli(['normalize', '--summary', d]);
    expect(r.code).toBe(0);
    expect(r.lines).toHaveLength(1);
    const s = summaryOf(r.stderr);
    expect(s.parts).toBe(1);
    expect(s.inputLines).toBe(30 + 1 + codexLines);
    expect(s.eventLines + s.noToolDataLines + s.diagnosticLines).toBe(s.inputLines);
    expect(s.diagnosticLines).toBeGreaterThanOrEqual(31);
    const skipped = diagnosticsOf(r.stderr).filter((x) => x.code === 'not_a_recording');
    expect(skipped.map((x) => x.message.match(/\((\d+) lines?\)/)?.[1])).toEqual(['30', '1']);
  });

  it('a named file that is no recording: one not_a_recording error, exit 1, the other files still read', async () => {
    const readme = join(dir, 'notes.txt');
    writeFileSync(readme, 'just some notes\n');
    const r = await cli(['normalize', readme, CODEX]);
    expect(r.code).toBe(1);
    expect(r.lines).toHaveLength(1);
    expect(diagnosticsOf(r.stderr).map((x) => `${x.severity}:${x.code}`)).toEqual(['error:not_a_recording']);
  });
});

describe.skipIf(!HAS_CORPUS)('an account for every line', () => {
  const files = HAS_CORPUS ? corpusFiles('', (n) => RECORDING.test(n)) : [];
  it(`eventLines + noToolDataLines + diagnosticLines = inputLines on every corpus recording (${files.length} files)`, async () => {
    expect(files.length).toBeGreaterThan(25);
    for (const f of files) {
      const r = await cli(['normalize', '--summary', join(CORPUS, f)]);
      expect(r.code, f).toBe(0);
      const s = summaryOf(r.stderr);
      expect(s.eventLines + s.noToolDataLines + s.diagnosticLines, f).toBe(s.inputLines);
      expect(s.inputLines, f).toBe(readFileSync(join(CORPUS, f), 'utf8').replace(/\n$/, '').split('\n').length);
      // A real recording is recognized: none of its lines is "not this format".
      expect(codes(r.stderr), f).not.toContain('unrecognized_input');
      expect(codes(r.stderr), f).not.toContain('unrecognized_lines');
    }
  });

  const wrong: [string, string, string][] = [['opencode', 'Claude', CLAUDE], ['acp', 'Claude', CLAUDE], ['claude', 'Codex', CODEX], ['acp', 'Codex', CODEX]];
  for (const [from, what, file] of wrong) {
    it(`--from ${from} on a ${what} file: one unrecognized_input with the counts, 0 parts, exit 0; --strict exits 1`, async () => {
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n').length;
      const r = await cli(['normalize', '--from', from, '--summary', file]);
      expect(r.code).toBe(0);
      expect(r.lines).toHaveLength(0);
      const ds = diagnosticsOf(r.stderr).slice(0, -1);
      expect(ds.map((d) => `${d.severity}:${d.code}`)).toEqual(['error:unrecognized_input']);
      expect(ds[0]!.message).toContain(`(${lines} not recognized, 0 reported`);
      expect(summaryOf(r.stderr)).toMatchObject({ inputLines: lines, eventLines: 0, noToolDataLines: 0, diagnosticLines: lines, parts: 0, diagnostics: 1 });
      expect((await cli(['normalize', '--from', from, '--strict', file])).code).toBe(1);
    });
  }

  it('a file some lines of which are not the format: one unrecognized_lines warning naming the first, the parts kept', async () => {
    const f = join(dir, 'claude-plus-codex.jsonl');
    writeFileSync(f, `${readFileSync(CLAUDE, 'utf8')}${readFileSync(CODEX, 'utf8')}`);
    const r = await cli(['normalize', '--from', 'claude', '--summary', f]);
    expect(r.code).toBe(0);
    expect(r.lines).toHaveLength(21);
    const ds = diagnosticsOf(r.stderr).slice(0, -1);
    expect(ds.map((d) => d.code)).toEqual(['unrecognized_lines']);
    expect(ds[0]!.message).toMatch(/^7 line\(s\) of .* \(the first is line 54\)/);
    const s = summaryOf(r.stderr);
    expect(s.eventLines + s.noToolDataLines + s.diagnosticLines).toBe(s.inputLines);
    expect(s.diagnosticLines).toBe(7);
  });
});
