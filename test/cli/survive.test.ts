// Issue 16, survival: a line over the size limit is skipped (never assembled, even at 600 MB) and
// the run goes on; a closed stdout ends the run quietly with 141; a write failure (a full disk) is
// one clear line, never a stack trace. The pipe and disk cases run the real CLI in a child process.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { runCli } from '../../src/cli/run.js';
import type { ToolEvent } from '../../src/contract/index.js';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'toolnorm-survive-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ev = (partId: string, at: number) => ({ sessionId: 's', partId, at, source: { provider: 'executor' as const } });
const call = (id: string): ToolEvent[] => [
  { type: 'tool.started', ...ev(id, 1), name: 'bash', kind: 'bash', title: 'Run', input: { command: 'ls' } },
  { type: 'tool.completed', ...ev(id, 2), output: { text: 'ok' } },
];
const lines = (events: ToolEvent[]) => events.map((e) => JSON.stringify(e)).join('\n');

const diagnostics = (stderr: string) => stderr.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { code: string; message: string; source?: { line?: number } });

describe('line_too_large', () => {
  it('--max-line-bytes 1KiB: the 5 KB line is skipped with its size, the lines after it are read: exit 0, 2 parts', async () => {
    const big = JSON.stringify({ ...call('big')[0], input: { command: 'x'.repeat(5000) } });
    const f = join(dir, 'one-big.ndjson');
    writeFileSync(f, `${lines(call('a'))}\n${big}\n${lines(call('b'))}\n`);
    const r = await cli(['normalize', '--from', 'events', '--max-line-bytes', '1KiB', '--summary', f]);
    expect(r.code).toBe(0);
    expect(r.lines.map((p) => (p as { id: string }).id)).toEqual(['a', 'b']);
    const ds = diagnostics(r.stderr);
    expect(ds.slice(0, -1).map((d) => `${d.code}@${d.source?.line}`)).toEqual(['line_too_large@3']);
    expect(ds[0]!.message).toContain(`line 3 is ${Buffer.byteLength(big)} bytes, over the 1024-byte line limit`);
    expect(ds.at(-1)).toMatchObject({ inputLines: 5, eventLines: 4, noToolDataLines: 0, diagnosticLines: 1, parts: 2, diagnostics: 1 });
    // Under the default limit (128 MiB) the same line is read: 3 parts.
    expect((await cli(['normalize', '--from', 'events', f])).lines).toHaveLength(3);
    expect((await cli(['normalize', '--max-line-bytes', '0', f])).code).toBe(2);
  });

  it('a 600 MB line is stream-skipped without building the string: exit 0, one line_too_large of 629145600 bytes, the 2 parts around it', async () => {
    const MiB = Buffer.alloc(1024 * 1024, 0x61);
    const start = '{"type":"tool.started","input":"';
    async function* input() {
      yield Buffer.from(`${lines(call('before'))}\n${start}`);
      // 600 MiB in all, counting the line's start above.
      for (let i = 0; i < 599; i++) yield MiB;
      yield Buffer.alloc(1024 * 1024 - start.length, 0x61);
      yield Buffer.from(`\n${lines(call('after'))}\n`);
    }
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (c) => { out += c; });
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (c) => { err += c; });
    const before = process.memoryUsage().rss;
    const code = await runCli({ argv: ['normalize', '--from', 'events', '--summary', '-'], stdin: Readable.from(input()), stdout, stderr, env: process.env, cwd: process.cwd() });
    const grew = process.memoryUsage().rss - before;
    expect(code).toBe(0);
    expect(out.trim().split('\n').map((l) => JSON.parse(l).id)).toEqual(['before', 'after']);
    const ds = diagnostics(err);
    expect(ds.slice(0, -1).map((d) => d.code)).toEqual(['line_too_large']);
    expect(ds[0]!.message).toContain('line 3 is 629145600 bytes');
    expect(ds.at(-1)).toMatchObject({ inputLines: 5, diagnosticLines: 1, parts: 2 });
    // Never held: far less than the line itself (the limit is 128 MiB; a string of it would be more).
    expect(grew).toBeLessThan(128 * 1024 * 1024);
  }, 60_000);
});

/** The real CLI in a child process (tsx), so stdout is a real pipe or file. */
function run(args: string[], stdout: 'pipe' | number, onStdout?: (child: ReturnType<typeof spawn>) => void) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: REPO_ROOT, stdio: ['ignore', stdout, 'pipe'] });
  let err = '';
  child.stderr!.on('data', (c) => { err += c; });
  onStdout?.(child);
  return new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stderr: err })));
}

const NO_TRACE = /\n\s+at |Error:|EPIPE/;

describe.skipIf(process.platform === 'win32')('closed stdout and full disk', () => {
  const big = join(dir, 'big.ndjson');
  const events: ToolEvent[] = [];
  for (let i = 0; i < 20_000; i++) events.push(...call(`p${i}`));
  writeFileSync(big, `${lines(events)}\n`);
  const text = join(dir, 'text.txt');
  writeFileSync(text, `${'some output line\n'.repeat(20_000)}`);

  /** Reads the first line and closes the pipe, as `| head -1` does. */
  const headOne = (child: ReturnType<typeof spawn>) => {
    let got = '';
    child.stdout!.on('data', (c) => {
      got += c;
      if (got.includes('\n')) child.stdout!.destroy();
    });
  };

  it('normalize big | head -1: exit 141, nothing on stderr', async () => {
    const r = await run(['normalize', '--from', 'events', big], 'pipe', headOne);
    expect(r).toEqual({ code: 141, stderr: '' });
  }, 60_000);

  it('compress with its reader gone: exit 141, nothing but the stats line on stderr (never a trace)', async () => {
    const r = await run(['compress', '--max-bytes', '100000', text], 'pipe', (child) => child.stdout!.destroy());
    expect(r.code).toBe(141);
    expect(r.stderr).not.toMatch(NO_TRACE);
  }, 60_000);

  it('replay of a big session | head -1: exit 141, nothing on stderr', async () => {
    const url = `sqlite:${join(dir, 'replay.db')}`;
    expect((await cli(['normalize', '--from', 'events', '--store', url, '--quiet', big], { cwd: dir })).code).toBe(0);
    const r = await run(['replay', '--store', url, '--session', 's', '--to', 'events'], 'pipe', headOne);
    expect(r).toEqual({ code: 141, stderr: '' });
  }, 60_000);

  it.skipIf(!existsSync('/dev/full'))('stdout on a full disk (/dev/full): exit 1 and exactly one line saying so, for normalize, compress and replay', async () => {
    const full = openSync('/dev/full', 'w');
    try {
      const n = await run(['normalize', '--from', 'events', big], full);
      expect(n).toEqual({ code: 1, stderr: 'toolnorm normalize: cannot write to stdout: no space left on device (ENOSPC)\n' });
      const c = await run(['compress', text], full);
      expect(c).toEqual({ code: 1, stderr: 'toolnorm compress: cannot write to stdout: no space left on device (ENOSPC)\n' });
      const url = `sqlite:${join(dir, 'replay.db')}`;
      const r = await run(['replay', '--store', url, '--session', 's'], full);
      expect(r).toEqual({ code: 1, stderr: 'toolnorm replay: cannot write to stdout: no space left on device (ENOSPC)\n' });
    } finally {
      closeSync(full);
    }
  }, 60_000);
});
