// Failures writing the command's own output. A closed pipe (`toolnorm normalize big | head -1`)
// ends the run quietly with 141, the status of a process ended by SIGPIPE (128 + 13), which is what
// shells and `set -o pipefail` expect; any other write failure (a full disk) is one clear line.
import type { Writable } from 'node:stream';

/** Exit status after the reader of stdout went away. */
export const BROKEN_PIPE_EXIT = 141;

export class OutputError extends Error {
  constructor(readonly stream: string, readonly reason: Error) {
    super(`cannot write to ${stream}: ${describeIoError(reason)}`);
    this.name = 'OutputError';
  }

  get brokenPipe(): boolean {
    return isBrokenPipe(this.reason);
  }
}

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EPIPE: 'the reader closed the pipe',
  EIO: 'input/output error',
  EBADF: 'the stream is not open for writing',
  EACCES: 'permission denied',
  EROFS: 'read-only file system',
  ERR_STREAM_DESTROYED: 'the stream was closed',
};

/** `no space left on device (ENOSPC)` rather than Node's `ENOSPC: no space left on device, write`. */
export function describeIoError(err: Error): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code && REASONS[code]) return `${REASONS[code]} (${code})`;
  return code ? `${err.message.replace(/^[A-Z_]+: /, '')} (${code})` : err.message;
}

export function isBrokenPipe(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

/**
 * The exit status for an error that ends a command, printing the one line it deserves: none for a
 * broken pipe. Undefined when the error is not an output failure.
 */
export function outputFailure(err: unknown, command: string, stderr: Writable): number | undefined {
  if (!(err instanceof OutputError)) return undefined;
  if (err.brokenPipe) return BROKEN_PIPE_EXIT;
  safeWrite(stderr, `toolnorm ${command}: ${err.message}\n`);
  return 1;
}

/** Writes a last message to a stream that may itself be broken, without ever throwing. */
export function safeWrite(stream: Writable, text: string): void {
  try {
    if (!stream.destroyed && stream.writable) stream.write(text);
  } catch {
    // Nowhere left to report to.
  }
}
