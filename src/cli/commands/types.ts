import type { Readable, Writable } from 'node:stream';

/** What a command gets: its arguments and the process streams (injected so tests can run it in-process). */
export interface CommandIO {
  argv: string[];
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Environment (for HOME, CI, colours…). */
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export interface Command {
  name: string;
  /** One line for `toolnorm --help`. */
  summary: string;
  /** Full usage text for `toolnorm <command> --help`. */
  usage: string;
  /** Resolves to the process exit code. Must not throw for bad input: print the reason and return non-zero. */
  run(io: CommandIO): Promise<number>;
}

/** Error for bad command-line usage: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
