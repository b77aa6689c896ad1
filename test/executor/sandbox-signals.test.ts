// Issue 29, signals in `toolnorm exec` and the pipe rule of bash. The real CLI runs in a child
// process (the source through tsx by default; TOOLNORM_EXEC_CLI=dist runs the built
// dist/src/cli/main.js after `npm run build`), with a command that sleeps. Once that sleep is seen
// in the host's process table, toolnorm gets SIGTERM, SIGHUP or SIGINT. The call must be recorded
// as cancelled, toolnorm must exit 128 + the signal's number, and every process of the command must
// be gone, at the privileged tier (no sandbox) and inside bwrap.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ToolEvent } from '../../src/contract/index.js';
import { builtinTools, ToolExecutor, ToolRegistry } from '../../src/executor/index.js';
import { probeBwrap } from '../../src/executor/sandbox/bwrap.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { checkResult, sleep, tempDir } from '../helpers/executor.js';

const haveBwrap = existsSync('/usr/bin/bwrap') && probeBwrap('/usr/bin/bwrap') === undefined;
if (process.env.CI && !haveBwrap) throw new Error('CI installs bubblewrap (.ci/run); /usr/bin/bwrap is missing or cannot create the sandbox');

const builtCli = process.env.TOOLNORM_EXEC_CLI === 'dist';
const CLI = builtCli ? [join(REPO_ROOT, 'dist/src/cli/main.js')] : ['--import', 'tsx', join(REPO_ROOT, 'src/cli/main.ts')];
if (builtCli && !existsSync(CLI[0]!)) throw new Error('TOOLNORM_EXEC_CLI=dist: run `npm run build` first');

const base = tempDir('toolnorm-signals-');

/** Host pids whose command line is exactly this argv (a sleep with a duration no one else uses). */
function pidsRunning(argv: string[]): number[] {
  const want = `${argv.join('\0')}\0`;
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8') === want) found.push(Number(name));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/** Alive: in the process table and not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function until<T>(what: string, probe: () => T | undefined, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await sleep(50);
  }
}

let seq = 0;
const CASES = [
  { signal: 'SIGTERM', exit: 143 },
  { signal: 'SIGHUP', exit: 129 },
  { signal: 'SIGINT', exit: 130 },
] as const;

describe('toolnorm exec, signalled mid-command', () => {
  for (const tier of ['privileged', 'execute'] as const) {
    describe.skipIf(tier === 'execute' && !haveBwrap)(`at the ${tier} tier`, () => {
      for (const { signal, exit } of CASES) {
        it(`${signal}: records cancelled, exits ${exit}, and the command's processes are gone`, async () => {
          const ws = join(base, `${tier}-${signal}`);
          mkdirSync(ws);
          // A foreground sleep and a background one that ignores SIGTERM: the group must end anyway.
          const fg = ['sleep', `${4000 + ++seq}.5`];
          const bg = ['sleep', `${5000 + seq}.5`];
          const command = `echo $$ > shell.pid; (trap '' TERM; exec ${bg.join(' ')}) & ${fg.join(' ')}; echo "ran-$((1 + 1))-on"`;
          const child = spawn(process.execPath, [...CLI, 'exec', '--cwd', ws, '--tier', tier, '--timeout', '120000', '--events', 'bash', JSON.stringify({ command })], {
            cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: ws },
          });
          let out = '';
          let err = '';
          child.stdout.on('data', (c) => { out += c; });
          child.stderr.on('data', (c) => { err += c; });
          const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on('close', (code, sig) => r({ code, signal: sig })));

          const [fgPid] = await until('the foreground sleep', () => pidsRunning(fg)[0] !== undefined ? pidsRunning(fg) : undefined);
          const [bgPid] = await until('the background sleep', () => pidsRunning(bg)[0] !== undefined ? pidsRunning(bg) : undefined);
          // At the privileged tier the shell's pid is the host's; inside the sandbox it is the
          // sandbox's own, so there the sleeps (found in the host's table) are what is checked.
          const shellPid = tier === 'privileged' ? Number(await until('shell.pid', () => { try { return readFileSync(join(ws, 'shell.pid'), 'utf8').trim() || undefined; } catch { return undefined; } })) : undefined;
          expect([alive(fgPid!), alive(bgPid!)]).toEqual([true, true]);

          child.kill(signal);
          const done = await closed;
          expect(done, err).toEqual({ code: exit, signal: null });

          const events = out.trim().split('\n').map((l) => JSON.parse(l) as ToolEvent);
          const last = events.at(-1)!;
          expect(last.type).toBe('tool.failed');
          expect(last.type === 'tool.failed' && last.error).toMatchObject({ code: 'cancelled', details: { reason: `interrupted by ${signal}` } });
          const part = JSON.parse(err.split('\n')[0]!) as { state: string; error: { code: string } };
          expect(part).toMatchObject({ state: 'error', error: { code: 'cancelled' } });
          expect(out).not.toContain('ran-2-on'); // what the shell would print after the sleep

          // The group is gone: toolnorm has exited, so nothing waits for these processes any more.
          await until('the sleeps to end', () => (alive(fgPid!) || alive(bgPid!) ? undefined : true), 10_000).catch(() => undefined);
          expect([alive(fgPid!), alive(bgPid!)]).toEqual([false, false]);
          expect([...pidsRunning(fg), ...pidsRunning(bg)]).toEqual([]);
          if (shellPid !== undefined) expect(alive(shellPid)).toBe(false);
        }, 120_000);
      }
    });
  }
});

describe('a background child that keeps the output pipe open', () => {
  const ws = tempDir('toolnorm-bg-');
  const leftovers: number[] = [];
  afterAll(() => {
    for (const pid of leftovers) {
      try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
    }
  });

  for (const tier of ['privileged', 'execute'] as const) {
    it.skipIf(tier === 'execute' && !haveBwrap)(`at ${tier}: \`sleep … & echo ok\` completes with "ok", not as a timeout`, async () => {
      const bg = ['sleep', `${6000 + ++seq}.5`];
      const ex = new ToolExecutor({ registry: new ToolRegistry(builtinTools()), cwd: ws, home: ws, policy: { maxTier: tier } });
      // The limit is far below the sleep, so waiting for the pipe to close would be a timeout.
      const r = await ex.execute({ tool: 'bash', input: { command: `${bg.join(' ')} & echo ok` }, timeoutMs: 20_000 });
      leftovers.push(...pidsRunning(bg));
      checkResult(r);
      expect(r.part.state).toBe('complete');
      expect(r.part.state === 'complete' && r.part.output).toMatchObject({ text: 'ok\n', structured: { exitCode: 0 } });
      // Inside the sandbox the background child ends with the sandbox; outside it is left running,
      // as a shell leaves it.
      if (tier === 'execute') expect(pidsRunning(bg)).toEqual([]);
      else expect(pidsRunning(bg).length).toBe(1);
    }, 60_000);
  }

  it('the output written before the shell exits is all there, even when a child keeps writing', async () => {
    const bg = ['sleep', `${7000 + ++seq}.5`];
    const ex = new ToolExecutor({ registry: new ToolRegistry(builtinTools()), cwd: ws, home: ws, policy: { maxTier: 'privileged' } });
    const command = `(while :; do echo tick; sleep 0.05; done; ${bg.join(' ')}) & seq 1 20000; echo done`;
    const r = await ex.execute({ tool: 'bash', input: { command }, timeoutMs: 20_000 });
    // The ticker is a subshell: end it by its group (the bash group started detached).
    for (const pid of pidsRunning(['/bin/bash', '-c', command])) leftovers.push(pid);
    expect(r.part.state).toBe('complete');
    const text = r.part.state === 'complete' ? (r.part.output as { text: string }).text : '';
    const numbers = text.split('\n').filter((l) => /^\d+$/.test(l));
    expect(numbers.length).toBe(20000);
    expect(text).toContain('done\n');
  }, 60_000);
});

describe('toolnorm exec and the environment', () => {
  it('SECRET_TOKEN in toolnorm\'s environment is in neither the events nor the part; --pass-env passes a name', async () => {
    const ws = tempDir('toolnorm-env-');
    const secret = `s3cr3t-${process.pid}-${Date.now()}`;
    const run = (tier: string) => new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, [...CLI, 'exec', '--cwd', ws, '--tier', tier, '--events', '--pass-env', 'TOOLNORM_PASS_ME', 'bash', '{"command":"env"}'], {
        cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SECRET_TOKEN: secret, TOOLNORM_PASS_ME: 'passed-through' },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => { out += c; });
      child.stderr.on('data', (c) => { err += c; });
      child.on('close', (code) => resolve({ code, out, err }));
    });
    for (const tier of haveBwrap ? ['execute', 'privileged'] : ['privileged']) {
      const r = await run(tier);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain('PATH=');
      expect(r.out).toContain('TOOLNORM_PASS_ME=passed-through');
      expect(`${r.out}${r.err}`).not.toContain(secret);
      expect(`${r.out}${r.err}`).not.toContain('SECRET_TOKEN');
    }
  }, 120_000);
});
