// Issue 30 item 5, `toolnorm record` with scripted child processes (plain Node scripts standing in
// for an agent, so that every byte, exit and signal is under the test's control; the real Codex
// and Claude Code binaries run in agents.test.ts). toolnorm itself runs as a real process: signals and pipes are the
// point. The streams are recorded provider output shipped in fixtures/.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../helpers/corpus.js';
import { cli } from '../helpers/cli.js';
import { bySession, jsonLines, normalizeFile, spawnRecord, storedEvents, until } from '../helpers/record.js';
import type { ToolEvent } from '../../src/contract/index.js';

const CODEX = join(REPO_ROOT, 'fixtures/codex/exec-tools-plan/exec-tools-plan.jsonl');
const CLAUDE = join(REPO_ROOT, 'fixtures/demo/claude-streamjson-all-tools.jsonl');
const root = mkdtempSync(join(tmpdir(), 'toolnorm-record-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => {
  const d = join(root, `run-${++n}`);
  mkdirSync(d, { recursive: true });
  return d;
};

/** Agent stand-ins. Each is `node SCRIPT ARGS`. */
const SCRIPTS = {
  /** Writes FILE in 7-byte chunks (lines cut anywhere), then the hex bytes TAIL, then exits with CODE. */
  emit: `import { readFileSync } from 'node:fs';
const [file, tail, code] = process.argv.slice(2);
const bytes = Buffer.concat([readFileSync(file), Buffer.from(tail, 'hex')]);
let i = 0;
const next = () => {
  if (i >= bytes.length) { process.exitCode = Number(code); return; }
  process.stdout.write(bytes.subarray(i, i += 7), next);
};
next();`,
  /** Writes the lines of FILE one by one, then idles until a signal (or, with MODE exit, exits 0); its pid goes to PIDFILE. With MODE handle, a signal is reported as a line, and it exits 40 + the signal's index. With MODE gate:PATH, it stops after half the lines until PATH exists, so a test can act while the agent still has lines to write. */
  slow: `import { existsSync, readFileSync, writeFileSync } from 'node:fs';
const [file, pidfile, mode] = process.argv.slice(2);
writeFileSync(pidfile, String(process.pid));
process.stdout.on('error', () => process.exit(0));
if (mode === 'handle') ['SIGINT', 'SIGTERM', 'SIGHUP'].forEach((s, k) => process.on(s, () => {
  process.stdout.write(JSON.stringify({ type: 'error', message: 'got ' + s }) + '\\n', () => process.exit(41 + k));
}));
const lines = readFileSync(file, 'utf8').split('\\n').filter(Boolean);
let i = 0;
const tick = () => {
  if (mode.startsWith('gate:') && i === Math.ceil(lines.length / 2) && !existsSync(mode.slice(5))) { setTimeout(tick, 20); return; }
  if (i < lines.length) process.stdout.write(lines[i++] + '\\n', () => setTimeout(tick, 20));
  else if (mode === 'exit') process.exit(0);
};
tick();
setInterval(() => {}, 1000);`,
};
const script = (name: keyof typeof SCRIPTS) => {
  const p = join(root, `${name}.mjs`);
  if (!existsSync(p)) writeFileSync(p, SCRIPTS[name]);
  return p;
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the raw file and the live output', () => {
  it('the raw file is every byte the agent wrote (lines cut in 7-byte writes, a torn last line, bytes that are not UTF-8); the live parts equal `normalize RAWFILE`; the agent\'s exit 3 is toolnorm\'s', async () => {
    const dir = fresh();
    const raw = join(dir, 'raw.jsonl');
    const tail = 'fffe7b227479'; // not UTF-8, then the start of a line that never ends
    const r = await spawnRecord(['--raw', raw, '--', process.execPath, script('emit'), CODEX, tail, '3'], { cwd: dir }).done;
    expect(r.code).toBe(3);
    expect(readFileSync(raw).equals(Buffer.concat([readFileSync(CODEX), Buffer.from(tail, 'hex')]))).toBe(true);
    const live = jsonLines(r.stdout);
    expect(live.length).toBe(6);
    expect((await normalizeFile(raw, dir)).records).toEqual(live);
  });

  it('stdin passes through to the agent: `record -- node -e "stdin to stdout"` records and normalizes what was piped in (a Claude Code stream)', async () => {
    const dir = fresh();
    const raw = join(dir, 'raw.jsonl');
    const input = readFileSync(CLAUDE, 'utf8');
    const r = await spawnRecord(['--raw', raw, '--to', 'acp', '--', process.execPath, '-e', 'process.stdin.pipe(process.stdout)'], { cwd: dir, stdin: input }).done;
    expect(r.code).toBe(0);
    expect(readFileSync(raw, 'utf8')).toBe(input);
    const frames = jsonLines(r.stdout);
    expect(frames.length).toBeGreaterThan(20);
    expect((await normalizeFile(raw, dir, 'acp')).records).toEqual(frames);
  });

  it('the provider is told from the first clear line, and a later line that makes normalize read the file otherwise is reported (format_disagreement)', async () => {
    const dir = fresh();
    const lines = readFileSync(CODEX, 'utf8').split('\n').slice(0, 2).concat(readFileSync(CLAUDE, 'utf8').split('\n')[0]!);
    const file = join(dir, 'mixed.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await cli(['record', '--raw', 'raw.jsonl', '--to', 'events', '--', process.execPath, script('emit'), file, '', '0'], { cwd: dir });
    expect(r.code).toBe(0);
    const ds = r.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { code: string; message: string });
    expect(ds.map((d) => d.code)).toContain('format_disagreement');
    expect(ds.find((d) => d.code === 'format_disagreement')!.message).toContain('as codex from its first clear line, but its first lines taken together read as claude');
    // Control: the same stream without the Claude line is read one way by both.
    writeFileSync(file, `${lines.slice(0, 2).join('\n')}\n`);
    const c = await cli(['record', '--raw', 'raw2.jsonl', '--', process.execPath, script('emit'), file, '', '0'], { cwd: dir });
    expect(c.stderr).not.toContain('format_disagreement');
  });
});

describe('exit status and signals', () => {
  it.each([
    ['exit 0', ['-e', 'process.exit(0)'], 0],
    ['exit 7', ['-e', 'process.exit(7)'], 7],
    ['killed by its own SIGTERM', ['-e', 'process.kill(process.pid, "SIGTERM"); setInterval(() => {}, 1000)'], 128 + constants.signals.SIGTERM],
  ])('%s: toolnorm exits with the agent\'s status', async (_name, args, status) => {
    const dir = fresh();
    const r = await spawnRecord(['--raw', join(dir, 'raw.jsonl'), '--', process.execPath, ...args], { cwd: dir }).done;
    expect(r.signal).toBeNull();
    expect(r.code).toBe(status);
  });

  it('a command that does not exist: 127 and one line; no raw file is left behind', async () => {
    const dir = fresh();
    const r = await spawnRecord(['--raw', join(dir, 'raw.jsonl'), '--', join(dir, 'no-such-agent')], { cwd: dir }).done;
    expect(r.code).toBe(127);
    expect(r.stderr).toContain(`cannot run ${join(dir, 'no-such-agent')}: command not found; nothing was recorded`);
    expect(existsSync(join(dir, 'raw.jsonl'))).toBe(false);
  });

  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('%s to toolnorm is forwarded: the agent reports it (in the raw file and the live output) and its exit status is toolnorm\'s', async (signal) => {
    const dir = fresh();
    const raw = join(dir, 'raw.jsonl');
    const run = spawnRecord(['--raw', raw, '--to', 'events', '--', process.execPath, script('slow'), CODEX, join(dir, 'pid'), 'handle'], { cwd: dir });
    await until(() => existsSync(raw) && readFileSync(raw, 'utf8').includes('turn.completed'), 'the stream to be written');
    run.child.kill(signal);
    const r = await run.done;
    expect(r.signal).toBeNull();
    expect(r.code).toBe(41 + ['SIGINT', 'SIGTERM', 'SIGHUP'].indexOf(signal));
    expect(readFileSync(raw, 'utf8').endsWith(`{"type":"error","message":"got ${signal}"}\n`)).toBe(true);
    expect((await normalizeFile(raw, dir, 'events')).records).toEqual(jsonLines(r.stdout));
  });

  it('an agent with no handler dies of the forwarded SIGINT: toolnorm exits 130, itself not killed', async () => {
    const dir = fresh();
    const raw = join(dir, 'raw.jsonl');
    const run = spawnRecord(['--raw', raw, '--', process.execPath, script('slow'), CODEX, join(dir, 'pid'), 'no'], { cwd: dir });
    await until(() => existsSync(raw) && readFileSync(raw, 'utf8').includes('turn.completed'), 'the stream to be written');
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(readFileSync(raw).equals(readFileSync(CODEX))).toBe(true);
  });
});

describe('the reader of stdout goes away', () => {
  it('toolnorm record | head -1: the agent goes on and the raw file records it to the end; toolnorm exits 141 (the agent succeeded)', async () => {
    const dir = fresh();
    const raw = join(dir, 'raw.jsonl');
    const run = spawnRecord(['--raw', raw, '--to', 'events', '--', process.execPath, script('slow'), CODEX, join(dir, 'pid'), 'exit'], { cwd: dir });
    run.child.stdout!.once('data', () => run.child.stdout!.destroy());
    const r = await run.done;
    expect(r.code).toBe(141);
    expect(r.stderr).not.toContain('Error');
    expect(readFileSync(raw).equals(readFileSync(CODEX))).toBe(true);
  });
});

describe('the raw file cannot be written', () => {
  it('a full disk under the raw file: one line saying so, the live output still complete, exit 1 although the agent succeeded (a 16 KiB tmpfs in a mount namespace of its own)', async () => {
    const dir = fresh();
    const disk = join(dir, 'disk');
    mkdirSync(disk);
    // A 100 KB line first (a message, no tool data), then the whole Codex stream.
    const input = join(dir, 'input.jsonl');
    writeFileSync(input, `${JSON.stringify({ type: 'item.completed', item: { id: 'pad', type: 'agent_message', text: 'x'.repeat(100_000) } })}\n${readFileSync(CODEX, 'utf8')}`);
    const run = (rawDir: string, mount: boolean) => new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const record = [process.execPath, '--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href, join(REPO_ROOT, 'src/cli/main.ts'), 'record', '--raw', join(rawDir, 'raw.jsonl'), '--', process.execPath, script('emit'), input, '', '0'];
      const argv = mount ? ['unshare', '--mount', '--', 'sh', '-c', 'mount -t tmpfs -o size=16k tmpfs "$0" && exec "$@"', disk, ...record] : record;
      const child = spawn(argv[0]!, argv.slice(1), { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
      child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });
    const expected = (await normalizeFile(input, dir)).records;
    expect(expected.length).toBe(6);
    const full = await run(disk, true);
    expect(full.stderr).toContain(`cannot write ${join(disk, 'raw.jsonl')}: `);
    expect(full.stderr).toContain('no space left on device');
    expect(full.stderr).toContain('the raw recording stops here, the agent goes on');
    expect(full.stderr.split('cannot write').length).toBe(2);
    expect(full.code).toBe(1);
    expect(jsonLines(full.stdout)).toEqual(expected);
    // Control: the same run with room for the raw file.
    const ok = await run(dir, false);
    expect(ok.code).toBe(0);
    expect(jsonLines(ok.stdout)).toEqual(expected);
  });
});

describe('killed mid-stream', () => {
  it('toolnorm killed (SIGKILL) while the agent writes: the raw file is a prefix of the agent\'s bytes, the store holds a prefix of the events, and `normalize RAWFILE --store` then completes it without conflict', async () => {
    const dir = fresh();
    const raw = join(dir, 'raw.jsonl');
    const store = `sqlite:${join(dir, 'events.db')}`;
    const gate = join(dir, 'go');
    const run = spawnRecord(['--raw', raw, '--store', store, '--to', 'none', '--', process.execPath, script('slow'), CODEX, join(dir, 'pid'), `gate:${gate}`], { cwd: dir });
    // Some events are committed while the agent still has lines to write (long before 1000 events).
    await until(async () => existsSync(join(dir, 'events.db')) && (await storedEvents(store, dir).catch(() => [])).length > 0, 'a first commit');
    run.child.kill('SIGKILL');
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    expect(alive(pid)).toBe(true);
    // The agent's next write meets the broken pipe; the gate makes sure there is one (under load, the
    // agent could otherwise have written everything before the kill and idle forever, holding the
    // stderr it shares with toolnorm open, so toolnorm's 'close' would never come).
    writeFileSync(gate, '');
    await until(() => !alive(pid), 'the agent to end on its broken pipe');
    const r = await run.done;
    expect(r.signal).toBe('SIGKILL');

    const bytes = readFileSync(raw);
    expect(readFileSync(CODEX).subarray(0, bytes.length).equals(bytes)).toBe(true);
    // One session: the stored events are the first events a normalize of the raw file makes.
    const fromRaw = (await normalizeFile(raw, dir, 'events')).records as ToolEvent[];
    const stored = await storedEvents(store, dir);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.length).toBeLessThanOrEqual(fromRaw.length);
    expect(stored).toEqual(fromRaw.slice(0, stored.length));

    const again = await normalizeFile(raw, dir, 'parts', ['--store', store]);
    expect(again.code).toBe(0);
    expect(await storedEvents(store, dir)).toEqual(bySession((await normalizeFile(raw, dir, 'events')).records as ToolEvent[]));
  });

  it('the agent killed (SIGKILL) after it went quiet: its events were already in the store while it idled; toolnorm exits 137 with the raw file and store equal to a later normalize', async () => {
    const dir = fresh();
    const raw = join(dir, 'raw.jsonl');
    const store = `sqlite:${join(dir, 'events.db')}`;
    const run = spawnRecord(['--raw', raw, '--store', store, '--', process.execPath, script('slow'), CODEX, join(dir, 'pid'), 'no'], { cwd: dir });
    await until(() => existsSync(raw) && readFileSync(raw).equals(readFileSync(CODEX)), 'the whole stream');
    // Committed by the idle timer: the agent writes nothing more and has not ended.
    const want = (await normalizeFile(raw, dir, 'events')).records;
    await until(async () => (await storedEvents(store, dir).catch(() => [])).length === want.length, 'every event in the store');
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    expect(alive(pid)).toBe(true);
    process.kill(pid, 'SIGKILL');
    const r = await run.done;
    expect(r.code).toBe(137);
    const live = jsonLines(r.stdout);
    expect((await normalizeFile(raw, dir)).records).toEqual(live);
    expect(await storedEvents(store, dir)).toEqual(bySession((await normalizeFile(raw, dir, 'events')).records as ToolEvent[]));
  });
});

describe('where the raw file goes', () => {
  it('beside a sqlite store: <store dir>/recordings/<UTC time>-<program>.jsonl, named on stderr; --to none prints nothing', async () => {
    const dir = fresh();
    const r = await spawnRecord(['--store', 'sqlite:db/events.db', '--to', 'none', '--', process.execPath, script('emit'), CODEX, '', '0'], { cwd: dir }).done;
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const files = readdirSync(join(dir, 'db/recordings'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{8}T\d{6}Z-node\.jsonl$/);
    expect(r.stderr).toContain(`to ${join('db/recordings', files[0]!)}\n`);
    expect(readFileSync(join(dir, 'db/recordings', files[0]!)).equals(readFileSync(CODEX))).toBe(true);
    expect((await storedEvents('sqlite:db/events.db', dir)).length).toBeGreaterThan(0);
  });

  it('without a store: .toolnorm/recordings/ in the working directory; two runs at once get two files (-2 when in the same second)', async () => {
    const dir = fresh();
    const args = ['--', process.execPath, script('emit'), CODEX, '', '0'];
    const [a, b] = await Promise.all([spawnRecord(args, { cwd: dir }).done, spawnRecord(args, { cwd: dir }).done]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const files = readdirSync(join(dir, '.toolnorm/recordings')).sort();
    expect(files.length).toBe(2);
    const stamps = files.map((f) => f.slice(0, 16));
    if (stamps[0] === stamps[1]) expect(files).toEqual([`${stamps[0]}-node-2.jsonl`, `${stamps[0]}-node.jsonl`]);
    for (const f of files) expect(readFileSync(join(dir, '.toolnorm/recordings', f)).equals(readFileSync(CODEX))).toBe(true);
  });

  it('an existing --raw file is never overwritten: exit 1, and the agent is not started', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 'raw.jsonl'), 'keep me\n');
    const r = await spawnRecord(['--raw', 'raw.jsonl', '--', process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(join(dir, 'ran'))}, '')`], { cwd: dir }).done;
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('raw.jsonl already exists (a raw recording is never overwritten');
    expect(readFileSync(join(dir, 'raw.jsonl'), 'utf8')).toBe('keep me\n');
    expect(existsSync(join(dir, 'ran'))).toBe(false);
  });

  it('usage: the agent command goes after --', async () => {
    const r = await cli(['record', 'codex', 'exec']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('put the agent command after --');
    expect((await cli(['record', '--to', 'nope', '--', 'true'])).code).toBe(2);
  });

  it('--help after -- is the agent\'s: the agent runs (and sees it) instead of toolnorm printing its usage', async () => {
    const dir = fresh();
    const r = await cli(['record', '--raw', 'raw.jsonl', '--to', 'none', '--', process.execPath, '-e', 'console.log(JSON.stringify({ type: "turn.started", argv: process.argv.slice(1) }))', '--', '--help'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(readFileSync(join(dir, 'raw.jsonl'), 'utf8')).toBe('{"type":"turn.started","argv":["--help"]}\n');
    // Control: before --, it is toolnorm's.
    expect((await cli(['record', '--help', '--', 'true'])).stdout).toContain('Usage: toolnorm record');
  });
});
