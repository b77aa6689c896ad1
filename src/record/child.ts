// The agent process of `toolnorm record`: spawned with its stdout piped to the recorder, stdin
// and stderr passed through, the signals toolnorm receives forwarded to it, and its end turned
// into the exit status a shell expects (a death by signal n is 128 + n).
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';

/**
 * Forwarded to the agent. An interactive terminal's Ctrl-C also reaches the agent directly (it is in
 * toolnorm's process group), so it may see SIGINT twice, as it does under the `codex` npm launcher,
 * which forwards the same way.
 */
export const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface AgentEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Agent {
  child: ChildProcess;
  stdout: Readable;
  /** Resolves when the agent has exited and its stdout is closed; rejects when it could not start. */
  ended: Promise<AgentEnd>;
  /** Stops forwarding signals (the agent has ended). */
  release(): void;
}

export interface SpawnAgentOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: Readable;
  stderr: Writable;
}

export function spawnAgent(o: SpawnAgentOptions): Agent {
  // The process's own streams are handed over as they are (a terminal stays a terminal for the
  // agent); streams injected by a caller (tests, an embedding program) are piped.
  const ownStdin = o.stdin === process.stdin;
  const ownStderr = o.stderr === process.stderr;
  const child = spawn(o.command, [...o.args], { cwd: o.cwd, env: o.env, stdio: [ownStdin ? 'inherit' : 'pipe', 'pipe', ownStderr ? 'inherit' : 'pipe'] });
  if (!ownStdin && child.stdin) {
    // The agent may exit without reading all of its input: that is not toolnorm's failure.
    child.stdin.on('error', () => {});
    o.stdin.pipe(child.stdin);
  }
  if (!ownStderr && child.stderr) child.stderr.pipe(o.stderr, { end: false });

  const forward = (signal: NodeJS.Signals) => {
    try {
      child.kill(signal);
    } catch {
      // Already gone.
    }
  };
  for (const s of FORWARDED_SIGNALS) process.on(s, forward);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    for (const s of FORWARDED_SIGNALS) process.off(s, forward);
    if (!ownStdin) o.stdin.unpipe(child.stdin ?? undefined);
  };

  const ended = new Promise<AgentEnd>((resolve, reject) => {
    child.once('error', (err) => {
      release();
      reject(err);
    });
    // 'close' comes after 'exit' once the agent's stdio is closed too: every byte has been read.
    child.once('close', (code, signal) => {
      release();
      resolve({ code, signal });
    });
  });
  // A start failure is also reported through the 'spawn'/'error' race the caller waits on first.
  ended.catch(() => {});
  return { child, stdout: child.stdout!, ended, release };
}

/** The agent's status as toolnorm's own: its exit code, or 128 + n after signal n. */
export function exitStatus(end: AgentEnd): number {
  if (end.signal) return 128 + (constants.signals[end.signal] ?? 0);
  return end.code ?? 1;
}

/** Status and message when the agent could not be started at all (the shell's 127 and 126). */
export function spawnFailure(err: NodeJS.ErrnoException, command: string): { status: number; message: string } {
  if (err.code === 'ENOENT') return { status: 127, message: `cannot run ${command}: command not found` };
  if (err.code === 'EACCES') return { status: 126, message: `cannot run ${command}: permission denied` };
  return { status: 126, message: `cannot run ${command}: ${err.message}` };
}
