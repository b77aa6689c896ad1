// bash {command, timeout?}: runs a command line in the session cwd, streams its output as
// progress, keeps a bounded head and tail of it, and kills the whole process group on abort.
// Below the privileged tier it runs inside the bubblewrap sandbox (sandbox/bwrap.ts), or is
// refused when bwrap cannot run and the policy does not allow running unsandboxed. Every part
// says which sandbox ran it (metadata.sandbox), and what the command changed in the writable
// roots is reported as FileMutationRecords (sandbox/snapshot.ts).
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { commandTitle } from '../../present/titles.js';
import { failure, success, type Tool, type ToolResult } from '../types.js';
import { commandEnv, sandboxPlan } from '../sandbox/bwrap.js';
import { afterSignal, changes, DigestCache, snapshot, snapshotMetadata, type ChangeReport } from '../sandbox/snapshot.js';
import { OutputCap } from './output-cap.js';

export const BashParams = {
  type: 'object',
  properties: {
    command: { type: 'string', minLength: 1, description: 'The command line, run by bash -c.' },
    timeout: { type: 'integer', minimum: 1, description: 'Time limit in ms; tighter than the session limit only.' },
  },
  required: ['command'],
  additionalProperties: false,
} as const;
export interface BashInput {
  command: string;
  timeout?: number;
}

export interface BashOptions {
  /** Shell binary (default /bin/bash). */
  shell?: string;
  /** Output kept in the result: head and tail of this many bytes in total (default 1 MiB). */
  maxOutputBytes?: number;
  /** Output streamed as progress before streaming stops (default: maxOutputBytes). */
  maxStreamedBytes?: number;
  /** SIGTERM → SIGKILL delay after an abort (default 1 000 ms). */
  killGraceMs?: number;
  /**
   * Where the command's environment is taken from (default process.env). Only the names
   * `commandEnv` keeps (the base list and the policy's `sandbox.env`) are passed on.
   */
  env?: NodeJS.ProcessEnv;
  /**
   * How long the output is still read after the shell exits: until the pipes have been quiet this
   * long (default 250 ms), and at most ten times this long. A background child that keeps the
   * pipes open does not hold the result longer.
   */
  drainMs?: number;
  /** Most bytes hashed per snapshot walk of the writable roots (default 256 MiB). */
  snapshotHashBytes?: number;
  /** Files larger than this are not hashed by the snapshot walks (default 64 MiB). */
  snapshotFileHashBytes?: number;
}

/** Characters of output repeated in the error message of a failed command. */
const ERROR_TAIL = 4000;

export function bashTool(options: BashOptions = {}): Tool<BashInput> {
  const maxOutput = options.maxOutputBytes ?? 1024 * 1024;
  const maxStreamed = options.maxStreamedBytes ?? maxOutput;
  const digests = new DigestCache();
  return {
    name: 'bash',
    kind: 'bash',
    tier: 'execute',
    description: 'Run a shell command in the session working directory.',
    params: BashParams,
    paramRoles: { '/command': 'EXEC_COMMAND' },
    title: (input) => `Running ${commandTitle(input.command)}`,
    timeoutMs: (input) => input.timeout,
    execute: (input, ctx) => new Promise<ToolResult>((resolveResult, reject) => {
      const plan = sandboxPlan(ctx.policy, ctx.cwd);
      const sandbox = plan.record;
      if (plan.kind === 'refused') {
        resolveResult(failure(`Denied: ${plan.reason}`, 'denied', { reason: 'sandbox_unavailable' }, { sandbox }));
        return;
      }
      const shell = options.shell ?? '/bin/bash';
      try {
        // Checked here: inside the sandbox a missing shell would only be bwrap's exit status 1.
        accessSync(shell, constants.X_OK);
      } catch (err) {
        resolveResult(failure(`could not start ${shell}: ${(err as Error).message}`, 'spawn_failed', undefined, { sandbox }));
        return;
      }
      const roots = ctx.policy.writeRoots;
      const walk = { limit: ctx.policy.sandbox.snapshotLimit, maxHashBytes: options.snapshotHashBytes, maxFileHashBytes: options.snapshotFileHashBytes };
      // The command starts once the walk before it is done; both walks stop at the call's deadline.
      void snapshot(roots, { ...walk, signal: ctx.signal }, digests).then((before) => {
        // What the command changed, reported to the executor before the outcome, whatever it is.
        const resolve = async (result: ToolResult) => {
          let report: ChangeReport | undefined;
          try {
            report = changes(before, await snapshot(roots, { ...walk, signal: afterSignal(ctx.signal) }, digests, before));
            if (report.mutations.length) ctx.mutated(report.mutations);
          } catch {
            // A mutation report the executor refused: the snapshot below still says what was seen.
          }
          const snap = report ? snapshotMetadata(report) : undefined;
          const extra = { sandbox, ...(snap ? { snapshot: snap } : {}) };
          resolveResult({ ...result, metadata: { ...(result.metadata ?? {}), ...extra } } as ToolResult);
        };
        const cap = new OutputCap(maxOutput);
        let streamed = 0;
        let streamStopped = false;
        const [file, args] = plan.kind === 'bwrap' ? [plan.bwrap, [...plan.args, '--', shell, '-c', input.command]] : [shell, ['-c', input.command]];
        const child = spawn(file, args, {
          cwd: ctx.cwd,
          env: commandEnv(options.env ?? process.env, ctx.policy.sandbox.env, plan.kind === 'bwrap'),
          stdio: ['ignore', 'pipe', 'pipe'],
          // Its own process group, so an abort reaches everything the command started.
          detached: true,
        });
        let killTimer: NodeJS.Timeout | undefined;
        let drainTimer: NodeJS.Timeout | undefined;
        let aborted = false;
        const kill = (signal: NodeJS.Signals) => {
          try {
            if (child.pid) process.kill(-child.pid, signal);
          } catch {
            // Already gone.
          }
        };
        const onAbort = () => {
          aborted = true;
          kill('SIGTERM');
          killTimer = setTimeout(() => kill('SIGKILL'), options.killGraceMs ?? 1000);
        };
        if (ctx.signal.aborted) onAbort();
        else ctx.signal.addEventListener('abort', onAbort, { once: true });

        const onData = (decoder: StringDecoder) => (chunk: Buffer) => {
          cap.add(chunk);
          if (streamStopped) return;
          if (streamed + chunk.length > maxStreamed) {
            streamStopped = true;
            ctx.progress({ message: `output passed ${maxStreamed} bytes; streaming stopped (the result keeps its head and tail)` });
            return;
          }
          streamed += chunk.length;
          // A decoder per stream, so a character split across chunks is not mangled.
          const text = decoder.write(chunk);
          if (text) ctx.progress({ outputDelta: text });
        };
        child.stdout.on('data', onData(new StringDecoder('utf8')));
        child.stderr.on('data', onData(new StringDecoder('utf8')));
        // After the shell exits: the drain ends once the pipes are quiet for drainMs, and in any case
        // after ten times that, so a child that keeps writing cannot hold the result either.
        const drainMs = options.drainMs ?? 250;
        let drainEnds = 0;
        const quietAgain = () => {
          if (!drainEnds) return;
          clearTimeout(drainTimer);
          drainTimer = setTimeout(settle, Math.max(0, Math.min(drainMs, drainEnds - Date.now())));
        };
        child.stdout.on('data', quietAgain);
        child.stderr.on('data', quietAgain);

        let spawnError: Error | undefined;
        let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
        let settled = false;
        const settle = () => {
          if (settled) return;
          settled = true;
          clearTimeout(drainTimer);
          clearTimeout(killTimer);
          ctx.signal.removeEventListener('abort', onAbort);
          // What still holds the pipes (a background child at the privileged tier) is not waited
          // for: our ends are closed, so its later writes go nowhere.
          child.stdout.destroy();
          child.stderr.destroy();
          if (!exit) {
            // A shell that never started reports a negative errno and no exit.
            resolve(failure(`could not start ${file}: ${spawnError?.message ?? 'it did not start'}`, 'spawn_failed'));
            return;
          }
          const { code, signal } = exit;
          const text = cap.text();
          const structured = { exitCode: code, ...(signal ? { signal } : {}), outputBytes: cap.total, ...(cap.omitted ? { truncated: true, omittedBytes: cap.omitted } : {}) };
          const output = { text, structured };
          const metadata = { exitCode: code, command: { command: input.command, cwd: ctx.cwd, exitCode: code } };
          if (code === 0) { resolve(success(output, metadata)); return; }
          const shown = text.length > ERROR_TAIL ? `…${text.slice(-ERROR_TAIL)}` : text;
          const head = code === null ? `Killed by ${signal ?? 'a signal'}` : `Exit code ${code}`;
          resolve(failure(shown ? `${head}\n${shown}` : head, code === null ? 'killed' : 'exit_nonzero', { exitCode: code, ...(signal ? { signal } : {}), output }, metadata));
        };
        child.on('error', (err) => {
          spawnError = err;
        });
        // The result is the shell's: decided when it exits. Its output is then drained for a short,
        // bounded time (what it wrote is already in the pipe), and 'close' ends the wait early when
        // nothing else holds the pipes.
        child.on('exit', (code, signal) => {
          exit = { code, signal };
          // After an abort, whatever of the group outlived the shell (it ignored SIGTERM) goes now.
          if (aborted) kill('SIGKILL');
          drainEnds = Date.now() + 10 * drainMs;
          drainTimer = setTimeout(settle, drainMs);
        });
        child.on('close', settle);
      }).catch(reject);
    }),
  };
}
