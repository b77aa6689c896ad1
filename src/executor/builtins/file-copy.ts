// file_copy {source, path}: `source` is a SOURCE_PATH (read: readable roots), `path` a PATH
// (written: writable roots). Only `path` changes, so only it gets a FileMutationRecord. Both ends
// go through safe-fs, so the link rules apply to each.
//
// The copy streams: one chunk buffer, read from the verified source descriptor and written to
// the verified temporary file, which is renamed into place only when the whole source is in it.
// Memory stays at the chunk size whatever the file size; a failed or cancelled copy leaves the
// destination as it was and no temporary file behind.
import { failure, success, type FileAffectingTool, type ToolResult } from '../types.js';
import { beginVerifiedWrite, openVerified, writeAllSync, type OpenedFile, type PendingWrite } from '../safe-fs.js';
import { fsFailure } from './fs-errors.js';
import { limitOption, tooLarge } from './limits.js';

export const FileCopyParams = {
  type: 'object',
  properties: {
    source: { type: 'string', description: 'File to copy from.' },
    path: { type: 'string', description: 'File to create or replace.' },
  },
  required: ['source', 'path'],
  additionalProperties: false,
} as const;
export interface FileCopyInput {
  source: string;
  path: string;
}

export interface FileCopyOptions {
  /** Larger sources are refused (default: none; the copy streams, so size costs disk, not memory). */
  maxFileBytes?: number;
  /** Bytes read and written at a time (default 1 MiB). */
  chunkBytes?: number;
}

const DEFAULT_CHUNK = 1024 * 1024;

export function fileCopyTool(options: FileCopyOptions = {}): FileAffectingTool<FileCopyInput> {
  const maxBytes = limitOption(options.maxFileBytes, Number.MAX_SAFE_INTEGER, 'fileCopy.maxFileBytes');
  const chunkBytes = Math.max(1, limitOption(options.chunkBytes, DEFAULT_CHUNK, 'fileCopy.chunkBytes'));
  const over = (shown: string, size: number) =>
    tooLarge(`${shown} is ${size} bytes; files over ${maxBytes} bytes are not copied (fileCopy.maxFileBytes)`, size, maxBytes);
  return {
    name: 'file_copy',
    kind: 'file_write',
    tier: 'workspace',
    description: 'Copy a file to a new or existing path.',
    params: FileCopyParams,
    paramRoles: { '/source': 'SOURCE_PATH', '/path': 'PATH' },
    title: (input, ctx) => `Copying ${ctx.display('/source', input.source)} to ${ctx.display('/path', input.path)}`,
    // An unusable path is denied by the PATH gate; there is then nothing to record.
    affectedPaths: (_input, ctx) => (ctx.paths['/path'] !== undefined ? [ctx.paths['/path']] : []),
    async execute(input, ctx) {
      const source = ctx.path('/source');
      const path = ctx.path('/path');
      const shownSource = ctx.display('/source', input.source);
      const shown = ctx.display('/path', input.path);
      if (source === path) return failure(`${shownSource} and ${shown} are the same file`, 'invalid_input');
      // Both ends through safe-fs: the source is opened like file_read opens (link rules
      // included), the destination written like file_write writes.
      let src: OpenedFile;
      try {
        src = await openVerified(source, shownSource, ctx.policy.files);
      } catch (err) {
        return fsFailure(err, shownSource);
      }
      try {
        if (src.stat.size > maxBytes) return over(shownSource, src.stat.size);
        let dst: PendingWrite;
        try {
          dst = beginVerifiedWrite(path, shown, ctx.policy.files);
        } catch (err) {
          return fsFailure(err, shown);
        }
        try {
          const copied = await pump(src, dst, { shownFrom: shownSource, shownTo: shown, chunkBytes, maxBytes, over, signal: ctx.signal });
          if (typeof copied !== 'number') return copied;
          try {
            dst.commit();
          } catch (err) {
            return fsFailure(err, shown);
          }
          return success({
            text: `Copied ${shownSource} to ${shown} (${copied} bytes)`,
            structured: { type: dst.existed ? 'update' : 'create', source, filePath: path, bytes: copied },
          }, { files: [{ path, operation: dst.existed ? 'modify' : 'create' }] });
        } finally {
          dst.close();
        }
      } finally {
        await src.handle.close();
      }
    },
  };
}

interface Pump {
  shownFrom: string;
  shownTo: string;
  chunkBytes: number;
  maxBytes: number;
  over(shown: string, size: number): ToolResult;
  signal: AbortSignal;
}

/** Source bytes into the temporary file, one chunk at a time: the byte count, or the failure. */
async function pump(from: OpenedFile, to: PendingWrite, p: Pump): Promise<number | ToolResult> {
  const chunk = Buffer.allocUnsafe(Math.min(p.chunkBytes, Math.max(64 * 1024, from.stat.size)));
  let total = 0;
  for (;;) {
    if (p.signal.aborted) return failure(`the copy of ${p.shownFrom} to ${p.shownTo} was cancelled; ${p.shownTo} is unchanged`, 'cancelled');
    let n: number;
    try {
      ({ bytesRead: n } = await from.handle.read(chunk, 0, chunk.length, null));
    } catch (err) {
      return fsFailure(err, p.shownFrom);
    }
    if (n === 0) return total;
    total += n;
    // A source that grows while it is copied is held to the same limit.
    if (total > p.maxBytes) return p.over(p.shownFrom, Math.max(total, (await from.handle.stat()).size));
    try {
      writeAllSync(to.fd, chunk, n);
    } catch (err) {
      return fsFailure(err, p.shownTo);
    }
  }
}
