// `toolnorm exec`, run in-process: exit codes, output, and the events → normalize → ACP path.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { issuesOfNormalizedToolPart, issuesOfToolEvent, type NormalizedToolPart, type ToolEvent } from '../../src/contract/index.js';
import { runCli } from '../../src/cli/run.js';
import { officialAcpErrors, paramsOf } from '../helpers/acp-schema.js';
import { tempDir } from '../helpers/executor.js';

const ws = tempDir();
const home = join(ws, 'home');
mkdirSync(home);
writeFileSync(join(ws, 'readme.md'), '# title\nbody\n');

function sink() {
  const chunks: Buffer[] = [];
  const stream = new Writable({ write(c, _e, cb) { chunks.push(Buffer.from(c)); cb(); } });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

async function cli(argv: string[], stdin = '') {
  const out = sink(), err = sink();
  const code = await runCli({ argv, stdin: Readable.from([stdin]), stdout: out.stream, stderr: err.stream, env: { HOME: home }, cwd: ws });
  return { code, stdout: out.text(), stderr: err.text() };
}

const lines = (text: string) => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);

describe('toolnorm exec', () => {
  it('prints the final part as one JSON line; exit 0 when complete', async () => {
    const r = await cli(['exec', 'file_read', '{"path":"readme.md"}']);
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    expect(out).toHaveLength(1);
    expect(issuesOfNormalizedToolPart(out[0])).toEqual([]);
    expect(out[0]).toMatchObject({ name: 'file_read', title: 'Reading readme.md', state: 'complete', output: { text: '# title\nbody' } });
    expect(r.stderr).toBe('');
  });

  it('exit 3 when the policy denies; the reason is in the part and on stderr', async () => {
    const r = await cli(['exec', '--tier', 'observe', 'file_write', '{"path":"x.txt","content":"hi"}']);
    expect(r.code).toBe(3);
    expect(lines(r.stdout)[0]).toMatchObject({ state: 'error', error: { code: 'denied' } });
    expect(r.stderr).toBe('toolnorm exec: Denied: tier workspace (writes files inside the writable roots) is above the session maximum observe\n');
  });

  it('exit 3 for a path outside the roots, resolved with the injected HOME', async () => {
    const r = await cli(['exec', '--root', ws, 'file_read', '{"path":"~/../../etc/passwd"}']);
    expect(r.code).toBe(3);
    expect((lines(r.stdout)[0] as NormalizedToolPart & { error: { message: string } }).error.message).toMatch(/resolves to .*\/etc\/passwd, which is outside the readable roots/);
  });

  it('--write-root and --root: the cwd is then no longer writable unless named', async () => {
    mkdirSync(join(ws, 'out'), { recursive: true });
    const ok = await cli(['exec', '--write-root', 'out', 'file_write', '{"path":"out/a.txt","content":"x"}']);
    expect(ok.code).toBe(0);
    const no = await cli(['exec', '--write-root', 'out', 'file_write', '{"path":"b.txt","content":"x"}']);
    expect(no.code).toBe(3);
    // The cwd is still readable: --root defaults to --cwd.
    expect((await cli(['exec', '--write-root', 'out', 'file_read', '{"path":"readme.md"}'])).code).toBe(0);
    expect(readFileSync(join(ws, 'out', 'a.txt'), 'utf8')).toBe('x');
  });

  it('--cwd anchors relative paths and runs bash there', async () => {
    const sub = join(ws, 'sub');
    mkdirSync(sub, { recursive: true });
    const r = await cli(['exec', '--cwd', 'sub', 'bash', '{"command":"pwd"}']);
    expect(r.code).toBe(0);
    expect(lines(r.stdout)[0]).toMatchObject({ output: { text: `${sub}\n` }, metadata: { exitCode: 0, cwd: sub } });
  });

  it('exit 1 when the call fails (non-zero exit, timeout, invalid input, missing file)', async () => {
    const cases: [string[], string][] = [
      [['bash', '{"command":"exit 4"}'], 'exit_nonzero'],
      [['--timeout', '100', 'bash', '{"command":"sleep 5"}'], 'timeout'],
      [['file_read', '{"path":42}'], 'invalid_input'],
      [['file_read', '{"path":"missing.txt"}'], 'not_found'],
    ];
    for (const [args, code] of cases) {
      const r = await cli(['exec', ...args]);
      expect([args, r.code]).toEqual([args, 1]);
      expect(lines(r.stdout)[0]).toMatchObject({ state: 'error', error: { code } });
    }
  });

  it('--deny-command and --allow-command reach the EXEC_COMMAND gate', async () => {
    expect((await cli(['exec', '--deny-command', 'rm *', 'bash', '{"command":"rm -rf x"}'])).code).toBe(3);
    expect((await cli(['exec', '--allow-command', 'echo *', 'bash', '{"command":"echo ok"}'])).code).toBe(0);
    expect((await cli(['exec', '--allow-command', 'echo *', 'bash', '{"command":"echo ok; id"}'])).code).toBe(3);
  });

  it.each([
    [[], /missing TOOL/],
    [['file_read'], /missing the JSON input/],
    [['file_read', '{nope'], /not JSON/],
    [['hammer', '{}'], /unknown tool "hammer"/],
    [['--tier', 'god', 'bash', '{}'], /unknown --tier "god"/],
    [['--timeout', '0', 'bash', '{}'], /--timeout must be a positive/],
    [['--timeout', '1.5', 'bash', '{}'], /--timeout must be a positive/],
    [['--bogus', 'bash', '{}'], /Unknown option/],
    [['bash', '{}', 'extra'], /unexpected arguments/],
  ])('exit 2 on bad usage: %j', async (args, message) => {
    const r = await cli(['exec', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/^toolnorm exec: .* \(see `toolnorm exec --help`\)\n$/);
    expect(r.stdout).toBe('');
  });

  it('--events prints valid ToolEvents on stdout and the part on stderr', async () => {
    const r = await cli(['exec', '--events', '--session', 'S', 'file_write', '{"path":"ev.txt","content":"hello"}']);
    expect(r.code).toBe(0);
    const events = lines(r.stdout) as ToolEvent[];
    for (const e of events) expect(issuesOfToolEvent(e)).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['tool.started', 'tool.policy.assessed', 'tool.progress', 'tool.file.mutated', 'tool.completed']);
    expect(events.every((e) => e.sessionId === 'S')).toBe(true);
    expect(lines(r.stderr)[0]).toMatchObject({ state: 'complete', title: 'Writing ev.txt' });
  });
});

describe('exec --events | normalize --from events', () => {
  const calls: [string, string[]][] = [
    ['bash ok', ['bash', '{"command":"echo one; sleep 0.05; echo two"}']],
    ['bash exit 2', ['bash', '{"command":"echo bad >&2; exit 2"}']],
    ['bash timeout', ['--timeout', '100', 'bash', '{"command":"sleep 3"}']],
    ['file_read', ['file_read', '{"path":"readme.md","limit":1}']],
    ['file_write', ['file_write', '{"path":"acp.txt","content":"a\\nb\\n"}']],
    ['file_edit', ['file_edit', '{"path":"acp.txt","old":"b","new":"c"}']],
    ['file_copy', ['file_copy', '{"source":"readme.md","path":"copy.md"}']],
    ['denied', ['--tier', 'observe', 'file_write', '{"path":"x.txt","content":"x"}']],
    ['invalid input', ['file_edit', '{"path":"acp.txt"}']],
  ];

  it.each(calls)('%s: parts equal the executor part, and every ACP frame validates against the official schema', async (_label, args) => {
    const exec = await cli(['exec', '--events', ...args]);
    // stderr: the part as one JSON line, then a human line when the call did not complete.
    const part = JSON.parse(exec.stderr.split('\n', 1)[0]!) as NormalizedToolPart;
    if (part.state === 'error') expect(exec.stderr.split('\n')[1]).toBe(`toolnorm exec: ${part.error.message.split('\n', 1)[0]}`);
    expect(issuesOfNormalizedToolPart(part)).toEqual([]);

    const parts = await cli(['normalize', '--from', 'events', '--to', 'parts', '-'], exec.stdout);
    expect(parts.code).toBe(0);
    // The same events through the same reducer give the same part.
    expect(lines(parts.stdout)).toEqual([part]);

    const acp = await cli(['normalize', '--from', 'events', '--to', 'acp', '-'], exec.stdout);
    expect(acp.code).toBe(0);
    const frames = lines(acp.stdout);
    expect(frames.length).toBeGreaterThanOrEqual(2);
    for (const f of frames) expect(officialAcpErrors(paramsOf(f))).toEqual([]);
    const last = paramsOf(frames.at(-1)) as { update: { status?: string; toolCallId: string } };
    expect(last.update.toolCallId).toBe(part.id);
    expect(last.update.status).toBe(part.state === 'complete' ? 'completed' : 'failed');
  });

  it('a diff shows up in the ACP frames of an edit', async () => {
    writeFileSync(join(ws, 'd.txt'), 'old line\n');
    const exec = await cli(['exec', '--events', 'file_edit', '{"path":"d.txt","old":"old","new":"new"}']);
    const acp = await cli(['normalize', '--from', 'events', '--to', 'acp', '-'], exec.stdout);
    const first = paramsOf(lines(acp.stdout)[0]) as { update: { content?: unknown[]; locations?: unknown[] } };
    expect(first.update.content).toContainEqual({ type: 'diff', path: join(ws, 'd.txt'), oldText: 'old', newText: 'new' });
    expect(first.update.locations).toEqual([{ path: join(ws, 'd.txt') }]);
  });
});

