import { PassThrough, Readable } from 'node:stream';
import { runCli } from '../../src/cli/run.js';

export interface CliResult { code: number; stdout: string; stderr: string; lines: unknown[] }

/** Runs the CLI in-process with captured streams. */
export async function cli(argv: string[], options: { stdin?: string; cwd?: string } = {}): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => { out += c; });
  stderr.on('data', (c) => { err += c; });
  const code = await runCli({ argv, stdin: Readable.from([options.stdin ?? '']), stdout, stderr, env: process.env, cwd: options.cwd ?? process.cwd() });
  return { code, stdout: out, stderr: err, lines: out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)) };
}
