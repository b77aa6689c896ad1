// Builds `metadata.files` entries. Every adapter and the executor describe a file change with
// this one builder, so a diff, its stats and the path rule are the same whoever made the change.
import type { FileChange, FileOperation } from '../contract/index.js';
import { diffStats, unifiedDiff } from './diff.js';
import { resolvedPath } from './paths.js';

export interface FileChangeInput {
  path: string;
  operation: FileOperation;
  /** Directory a relative path is relative to (the call's or session's cwd). */
  cwd?: string;
  /** For a rename: where the file was. */
  from?: string;
  /** The text before: the whole file, or the replaced snippet of an edit; null when the file did not exist. */
  oldText?: string | null;
  /** The text after (the whole file, or the new snippet); null when the file is gone. */
  newText?: string | null;
  /** A unified diff the provider gave, used when the texts are not both known. */
  diff?: string;
}

export function fileChange(c: FileChangeInput): FileChange {
  const path = resolvedPath(c.path, c.cwd);
  const change: FileChange = { path, operation: c.operation };
  if (c.from !== undefined) change.from = resolvedPath(c.from, c.cwd);
  const oldKnown = c.oldText !== undefined || c.operation === 'create';
  const newKnown = c.newText !== undefined || c.operation === 'delete';
  if (oldKnown && newKnown) {
    const oldText = c.oldText ?? null;
    const newText = c.newText ?? null;
    const d = unifiedDiff(path, oldText, newText);
    if (d) {
      change.diff = d.diff;
      change.stats = d.stats;
    }
    // Both texts are kept; the metadata budget removes the diff first (it can be rebuilt from
    // them), then the longest text, and notes what went in `metadata.truncated`.
    change.oldText = oldText;
    change.newText = newText;
  } else if (c.diff !== undefined && c.diff !== '') {
    change.diff = c.diff.endsWith('\n') ? c.diff : `${c.diff}\n`;
    change.stats = diffStats(change.diff);
    if (c.newText !== undefined) change.newText = c.newText;
    if (c.oldText !== undefined) change.oldText = c.oldText;
  } else {
    if (c.newText !== undefined) change.newText = c.newText;
    if (c.oldText !== undefined) change.oldText = c.oldText;
  }
  return change;
}
