// FileMutationRecord support: a file's size and sha256 before and after a call.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FileDigest, FileMutationRecord } from '../contract/index.js';

/** Size and hash of a regular file; null when there is none (missing, or not a regular file). */
export async function fileDigest(path: string): Promise<FileDigest | null> {
  try {
    if (!(await stat(path)).isFile()) return null;
  } catch {
    return null;
  }
  // Size is counted from the bytes hashed, so the two always describe the same content.
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of createReadStream(path)) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
  } catch {
    return null;
  }
  return { size, sha256: hash.digest('hex') };
}

/** @contract FileMutationRecord */
export function mutationOf(path: string, before: FileDigest | null, after: FileDigest | null): FileMutationRecord {
  const operation: FileMutationRecord['operation'] =
    before === null ? (after === null ? 'unchanged' : 'create')
      : after === null ? 'delete'
        : before.sha256 === after.sha256 && before.size === after.size ? 'unchanged' : 'modify';
  return { path, operation, before, after };
}
