// file_edit {path, old, new, replaceAll?}: exact-string replacement that reports a unified diff.
// Without replaceAll the old text must occur exactly once, so an edit never lands somewhere
// the caller did not mean.
//
// Every size is bounded before memory is spent on it: the file (maxFileBytes, refused before it
// is read), the result (maxResultBytes, computed from the match count before it is built: a
// replaceAll multiplies growth by the number of matches) and the diff returned (maxDiffBytes, cut
// with a marker). The result is built straight into one buffer of its exact size.
import type { ValidationIssue } from '../../contract/index.js';
import { failure, success, type FileAffectingTool } from '../types.js';
import { fsFailure } from './fs-errors.js';
import { readVerified, writeVerified } from '../safe-fs.js';
import { cutMarker, editDiff, fileDiff, unifiedDiff } from './diff.js';
import type { FileChange } from '../../contract/index.js';
import { DEFAULT_MAX_DIFF_BYTES, DEFAULT_MAX_FILE_BYTES, limitOption, tooLarge } from './limits.js';
import { countOccurrences, replacedBytes, replaceIntoBuffer } from './replace.js';

export const FileEditParams = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'File to edit.' },
    old: { type: 'string', description: 'Exact text to replace.' },
    new: { type: 'string', description: 'Replacement text.' },
    replaceAll: { type: 'boolean', description: 'Replace every occurrence (default: the text must occur once).' },
  },
  required: ['path', 'old', 'new'],
  additionalProperties: false,
} as const;
export interface FileEditInput {
  path: string;
  old: string;
  new: string;
  replaceAll?: boolean;
}

const LONE_SURROGATE = /\p{Cs}/u;

export interface FileEditOptions {
  /** Larger files are refused before they are read (default 16 MiB, as file_read). */
  maxFileBytes?: number;
  /** Edits whose result would be larger are refused before it is built (default: maxFileBytes). */
  maxResultBytes?: number;
  /** Bytes the diff may take in the output, its text and structuredPatch together (default 64 KiB). */
  maxDiffBytes?: number;
}

export function fileEditTool(options: FileEditOptions = {}): FileAffectingTool<FileEditInput> {
  const maxFile = limitOption(options.maxFileBytes, DEFAULT_MAX_FILE_BYTES, 'fileEdit.maxFileBytes');
  const maxResult = limitOption(options.maxResultBytes, maxFile, 'fileEdit.maxResultBytes');
  const maxDiff = limitOption(options.maxDiffBytes, DEFAULT_MAX_DIFF_BYTES, 'fileEdit.maxDiffBytes');
  return {
    name: 'file_edit',
    kind: 'file_edit',
    tier: 'workspace',
    description: 'Replace an exact piece of text in a file and report the diff.',
    params: FileEditParams,
    paramRoles: { '/path': 'PATH' },
    title: (input, ctx) => `Editing ${ctx.display('/path', input.path)}`,
    validate(input) {
      const issues: ValidationIssue[] = [];
      if (input.old === '') issues.push({ path: '/old', message: '/old: the text to replace is empty' });
      if (input.old === input.new) issues.push({ path: '/new', message: '/new: the replacement equals the old text; the edit would change nothing' });
      // Half a surrogate pair could match half of a character in the file, and has no UTF-8 form.
      for (const key of ['old', 'new'] as const) {
        if (LONE_SURROGATE.test(input[key])) issues.push({ path: `/${key}`, message: `/${key}: contains a lone surrogate (half of a UTF-16 pair), which is not text a file can hold` });
      }
      return { valid: issues.length === 0, issues };
    },
    // An unusable path is denied by the PATH gate; there is then nothing to record.
    affectedPaths: (_input, ctx) => (ctx.paths['/path'] !== undefined ? [ctx.paths['/path']] : []),
    // The replaced and the new snippet, from the start; the result adds the diff with the file's lines.
    plannedChanges: (input, ctx) => (ctx.paths['/path'] !== undefined ? [{ path: ctx.paths['/path'], operation: 'modify', oldText: input.old, newText: input.new }] : []),
    async execute(input, ctx) {
      const path = ctx.path('/path');
      const shown = ctx.display('/path', input.path);
      let original: string;
      try {
        // Read as the file about to be rewritten: writable roots, and no hardlinks whatever the read policy.
        const { data } = await readVerified(path, shown, ctx.policy.files, { access: 'write', maxBytes: maxFile, signal: ctx.signal });
        original = data.toString('utf8');
      } catch (err) {
        return fsFailure(err, shown, 'fileEdit.maxFileBytes');
      }
      const count = countOccurrences(original, input.old);
      if (count === 0) return failure(`the text to replace was not found in ${shown}`, 'no_match');
      if (count > 1 && !input.replaceAll) {
        return failure(`the text to replace occurs ${count} times in ${shown}; pass replaceAll, or include more context so it occurs once`, 'ambiguous_match', { occurrences: count });
      }
      const size = replacedBytes(Buffer.byteLength(original, 'utf8'), count, input.old, input.new);
      if (size > maxResult) {
        return tooLarge(
          `the edit would make ${shown} ${size} bytes (${count} replacement${count === 1 ? '' : 's'}); edits whose result is over ${maxResult} bytes are not made (fileEdit.maxResultBytes)`,
          size, maxResult, { replacements: count },
        );
      }
      try {
        writeVerified(path, shown, ctx.policy.files, replaceIntoBuffer(original, input.old, input.new, size));
      } catch (err) {
        return fsFailure(err, shown);
      }
      const d = editDiff(original, input.old, input.new, { maxBytes: maxDiff, name: shown });
      const marker = d.cut ? cutMarker(d.hunks.length, d.totalHunks, maxDiff) : undefined;
      const diff = unifiedDiff(shown, d.hunks, marker);
      // metadata.files: the same hunks under the absolute path, in the contract's diff form
      // (`--- /abs/path`); the lines counted over the whole edit, also past a cut.
      const change: FileChange = { path, operation: 'modify', diff: `${fileDiff(path, d.hunks, marker)}\n`, stats: { added: d.added, removed: d.removed } };
      return success({
        text: diff,
        structured: {
          filePath: path, replacements: count, linesAdded: d.added, linesRemoved: d.removed, structuredPatch: d.hunks,
          ...(d.cut ? { diffTruncated: true, totalHunks: d.totalHunks } : {}),
        },
      }, { files: [change] });
    },
  };
}
