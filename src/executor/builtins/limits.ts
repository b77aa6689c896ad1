// The size limits of the built-in file tools, in one place so they agree: by default a file that
// file_write or file_edit may produce is one file_read will read back.
import { failure, type ToolResult } from '../types.js';

/** file_read, file_write and file_edit refuse files (and results) over this by default. */
export const DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024;
/** file_edit's diff, text and structuredPatch together, is cut to this by default. */
export const DEFAULT_MAX_DIFF_BYTES = 64 * 1024;

/** A `too_large` failure; `details` always carries the size and the limit it is over. */
export function tooLarge(message: string, size: number, limit: number, extra?: Record<string, unknown>): ToolResult {
  return failure(message, 'too_large', { size, limit, ...extra });
}

/** A non-negative integer option, or the default; anything else is a programming error, said at once. */
export function limitOption(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer number of bytes, got ${value}`);
  return value;
}
