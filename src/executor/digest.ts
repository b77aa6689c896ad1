// FileMutationRecord support: a file's size and sha256 before and after a call.
import { createHash } from 'node:crypto';
import { constants as C } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { FileDigest, FileMutationRecord } from '../contract/index.js';
import { verifyFd, type FileBoundary } from './safe-fs.js';

/**
 * Size and hash of a regular file; null when there is none (missing, or not a regular file).
 * With a boundary, the file is opened without following a final symlink and hashed only when
 * the descriptor lies inside the writable roots (else null), so a swapped directory cannot make
 * a record describe a file outside them. Hardlinked files are hashed: no content leaves here.
 */
export async function fileDigest(path: string, boundary?: FileBoundary): Promise<FileDigest | null> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(path, C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK);
    if (boundary) verifyFd(fh.fd, path, boundary, 'write');
    if (!(await fh.stat()).isFile()) return null;
    // Size is counted from the bytes hashed, so the two always describe the same content.
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of fh.createReadStream({ autoClose: false })) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    return { size, sha256: hash.digest('hex') };
  } catch {
    return null;
  } finally {
    await fh?.close();
  }
}

/** @contract FileMutationRecord */
export function mutationOf(path: string, before: FileDigest | null, after: FileDigest | null): FileMutationRecord {
  const operation: FileMutationRecord['operation'] =
    before === null ? (after === null ? 'unchanged' : 'create')
      : after === null ? 'delete'
        : before.sha256 === after.sha256 && before.size === after.size ? 'unchanged' : 'modify';
  return { path, operation, before, after };
}
