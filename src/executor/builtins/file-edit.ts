// file_edit {path, old, new, replaceAll?}: exact-string replacement that reports a unified diff.
// Without replaceAll the old text must occur exactly once, so an edit never lands somewhere
// the caller did not mean.
import type { ValidationIssue } from '../../contract/index.js';
import { failure, success, type FileAffectingTool } from '../types.js';
import { fsFailure } from './fs-errors.js';
import { readVerified, writeVerified } from '../safe-fs.js';
import { replaceExact, unifiedDiff } from './diff.js';

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

export function fileEditTool(): FileAffectingTool<FileEditInput> {
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
      return { valid: issues.length === 0, issues };
    },
    // An unusable path is denied by the PATH gate; there is then nothing to record.
    affectedPaths: (_input, ctx) => (ctx.paths['/path'] !== undefined ? [ctx.paths['/path']] : []),
    async execute(input, ctx) {
      const path = ctx.path('/path');
      const shown = ctx.display('/path', input.path);
      let original: string;
      try {
        // Read as the file about to be rewritten: writable roots, and no hardlinks whatever the read policy.
        original = (await readVerified(path, shown, ctx.policy.files, { access: 'write', signal: ctx.signal })).data.toString('utf8');
      } catch (err) {
        return fsFailure(err, shown);
      }
      const r = replaceExact(original, input.old, input.new);
      if (r.count === 0) return failure(`the text to replace was not found in ${shown}`, 'no_match');
      if (r.count > 1 && !input.replaceAll) {
        return failure(`the text to replace occurs ${r.count} times in ${shown}; pass replaceAll, or include more context so it occurs once`, 'ambiguous_match', { occurrences: r.count });
      }
      try {
        writeVerified(path, shown, ctx.policy.files, r.content);
      } catch (err) {
        return fsFailure(err, shown);
      }
      const diff = unifiedDiff(shown, r.hunks);
      return success({
        text: diff,
        structured: { filePath: path, replacements: r.count, linesAdded: r.added, linesRemoved: r.removed, structuredPatch: r.hunks },
      });
    },
  };
}
