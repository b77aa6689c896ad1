// Issue 30, live use: when normalize reads a pipe, every record is written while the pipe waits
// for its next line, in every output format, instead of when a 64 KiB buffer fills or the input
// ends. Asserted on order, not time: a line's records must have arrived before the next line is
// written (lines go in at most every 200 ms; a record that is late waits up to WAIT_MS and fails).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { LiveCli, recordsAfterEachLine, sleep, twoSessions } from './live-cli.js';
import type { OutputFormat } from '../../src/pipeline/normalize.js';

const FORMATS: OutputFormat[] = ['parts', 'events', 'acp', 'ui', 'ai-sdk', 'ai-sdk-stream', 'ag-ui', 'otel'];
const LINES = twoSessions();

describe('normalize on a pipe writes each record before the next line comes', () => {
  // Concurrently: each run waits on its pipe most of the time.
  it.concurrent.for(FORMATS)('--to %s --summary', { timeout: 120_000 }, async (to, { expect }) => {
    const expected = await recordsAfterEachLine(LINES, to);
    // The check has teeth: records are due mid-stream, not only at the end. OTel is the exception:
    // its spans go out in export requests of many spans, the one of this input at its end.
    if (to !== 'otel') expect(expected.afterLine[LINES.length - 1]).toBeGreaterThan(0);
    const cli = new LiveCli(['normalize', '--to', to, '--summary']);
    const late: string[] = [];
    for (let i = 0; i < LINES.length; i++) {
      const wrote = Date.now();
      cli.write(LINES[i]!);
      const want = expected.afterLine[i]!;
      if (!(await cli.until(() => cli.out.length >= want))) {
        late.push(`line ${i + 1}: ${cli.out.length} of ${want} records`);
        break;
      }
      expect(cli.out.length, `records after line ${i + 1}`).toBe(want);
      await sleep(Math.max(0, 200 - (Date.now() - wrote)));
    }
    cli.end();
    const exit = await cli.exited;
    expect(late).toEqual([]);
    expect(exit.code).toBe(0);
    expect(cli.out).toHaveLength(expected.total);
    const summary = JSON.parse(cli.err.at(-1)!) as { inputLines: number };
    expect(summary.inputLines).toBe(LINES.length);
  });
});

describe('a slow pipe gives what the file gives', () => {
  // With --from auto, a live input that goes quiet before 20 lines is told from the lines it sent;
  // that must not change what any format's recording becomes.
  const FILES = [
    'claude/streamjson-all-tools/streamjson-all-tools.jsonl',
    'claude/partial-messages/partial-messages.jsonl',
    'codex/appserver-tools/appserver-tools.jsonl',
    'codex/exec-tools-plan/exec-tools-plan.jsonl',
    'codex/rollout-0163-probe/rollout-0163-probe.jsonl',
    'opencode/run1/run1-run.jsonl',
    'opencode/run1/run1-events.sse',
  ];
  it.concurrent.for(FILES)('%s, a line at a time with pauses', { timeout: 120_000 }, async (rel, { expect }) => {
    const file = join(REPO_ROOT, 'fixtures', rel);
    const fromFile = await cli(['normalize', '--to', 'events', file]);
    expect(fromFile.code).toBe(0);
    const live = new LiveCli(['normalize', '--to', 'events']);
    // Every line as it is, blank ones too (they end an SSE event).
    for (const line of readFileSync(file, 'utf8').replace(/\n$/, '').split('\n')) {
      live.write(line);
      await sleep(20);
    }
    live.end();
    expect((await live.exited).code).toBe(0);
    // stdin has no file name: the one difference from the file's events.
    const unnamed = (e: { source: { file?: string } }) => ({ ...e, source: { ...e.source, file: undefined } });
    expect(live.out.map((l) => unnamed(JSON.parse(l)))).toEqual(fromFile.lines.map((e) => unnamed(e as { source: { file?: string } })));
    expect(live.out.length).toBeGreaterThan(0);
  });
});
