// Reads an SQLite WAL file the way recovery does, to tell whether a killed writer left frames of
// an unfinished transaction behind (frames of the current generation after the last commit frame).
// Format: https://www.sqlite.org/fileformat.html#the_write_ahead_log
import { existsSync, readFileSync } from 'node:fs';

export interface WalTail {
  /** Valid frames of the current WAL generation. */
  frames: number;
  /** Of those, frames after the last commit frame: a transaction that never committed. */
  uncommitted: number;
}

export function walTail(dbPath: string): WalTail {
  const path = `${dbPath}-wal`;
  if (!existsSync(path)) return { frames: 0, uncommitted: 0 };
  const wal = readFileSync(path);
  if (wal.length < 32) return { frames: 0, uncommitted: 0 };
  const pageSize = wal.readUInt32BE(8);
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  const frameSize = 24 + pageSize;
  let frames = 0;
  let lastCommit = 0;
  for (let off = 32; off + 24 <= wal.length; off += frameSize) {
    // Frames of an older generation (before a WAL restart) carry other salts: recovery stops there.
    if (wal.readUInt32BE(off + 8) !== salt1 || wal.readUInt32BE(off + 12) !== salt2) break;
    frames++;
    if (wal.readUInt32BE(off + 4) !== 0) lastCommit = frames;
  }
  return { frames, uncommitted: frames - lastCommit };
}
