import { PassThrough, Readable } from 'node:stream';
import { runCli } from '../../src/cli/run.js';

export interface CliResult { code: number; stdout: string; stderr: string; lines: unknown[] }

/** Runs the CLI in-process with captured streams; `tty` makes stdin look like a terminal (nothing piped in). */
export async function cli(argv: string[], options: { stdin?: string; cwd?: string; tty?: boolean } = {}): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => { out += c; });
  stderr.on('data', (c) => { err += c; });
  const stdin = Object.assign(Readable.from([options.stdin ?? '']), options.tty ? { isTTY: true } : {});
  const code = await runCli({ argv, stdin, stdout, stderr, env: process.env, cwd: options.cwd ?? process.cwd() });
  // Parsed when asked for: a usage text on stdout (a line may start with "{") is not NDJSON.
  return { code, stdout: out, stderr: err, get lines() { return out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)); } };
}
