// Filesystem errors as ToolResult failures: one table from errno code to ToolError code and words.
import { BoundaryError, TooLargeError } from '../safe-fs.js';
import { failure, type ToolResult } from '../types.js';

const FS_ERRORS: Readonly<Record<string, { code: string; words: string }>> = {
  ENOENT: { code: 'not_found', words: 'does not exist' },
  ENOTDIR: { code: 'not_found', words: 'has a parent that is not a directory' },
  EISDIR: { code: 'is_directory', words: 'is a directory' },
  EACCES: { code: 'permission_denied', words: 'is not accessible (permission denied)' },
  EPERM: { code: 'permission_denied', words: 'is not accessible (operation not permitted)' },
  ELOOP: { code: 'not_found', words: 'has too many levels of symbolic links' },
  ENAMETOOLONG: { code: 'invalid_input', words: 'has a name that is too long' },
  ENOSPC: { code: 'no_space', words: 'could not be written: no space left on the device' },
  EROFS: { code: 'permission_denied', words: 'is on a read-only filesystem' },
};

/**
 * A failure naming the path as the caller gave it and what went wrong. `limitName` names the
 * option behind a size limit, so a `too_large` message says what to change.
 */
export function fsFailure(err: unknown, shown: string, limitName?: string): ToolResult {
  // The boundary's refusals are policy decisions made at open time: `denied`, with the reason.
  if (err instanceof BoundaryError) return failure(`Denied: ${err.message}`, 'denied', { reason: err.reason });
  if (err instanceof TooLargeError) return failure(limitName ? `${err.message} (${limitName})` : err.message, 'too_large', { size: err.size, limit: err.limit });
  if ((err as NodeJS.ErrnoException)?.code === 'ENOENT_DIR') return failure((err as Error).message, 'not_found');
  const code = (err as NodeJS.ErrnoException)?.code;
  const known = code ? FS_ERRORS[code] : undefined;
  if (known) return failure(`${shown} ${known.words}`, known.code, { errno: code });
  return failure(`${shown}: ${(err as Error)?.message ?? String(err)}`, 'tool_error', code ? { errno: code } : undefined);
}
