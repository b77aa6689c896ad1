// file_copy {source, path}: `source` is a SOURCE_PATH (read: readable roots), `path` a PATH
// (written: writable roots). Only `path` changes, so only it gets a FileMutationRecord. Both ends
// go through safe-fs, so the link rules apply to each.
import { failure, success, type FileAffectingTool } from '../types.js';
import { readVerified, writeVerified } from '../safe-fs.js';
import { fsFailure } from './fs-errors.js';

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

export function fileCopyTool(): FileAffectingTool<FileCopyInput> {
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
      // Both ends through safe-fs: the source is read like file_read reads (link rules included),
      // the destination written like file_write writes.
      let data: Buffer;
      try {
        ({ data } = await readVerified(source, shownSource, ctx.policy.files, { signal: ctx.signal }));
      } catch (err) {
        return fsFailure(err, shownSource);
      }
      let existed: boolean;
      try {
        ({ existed } = writeVerified(path, shown, ctx.policy.files, data));
      } catch (err) {
        return fsFailure(err, shown);
      }
      const size = data.length;
      return success({
        text: `Copied ${shownSource} to ${shown} (${size} bytes)`,
        structured: { type: existed ? 'update' : 'create', source, filePath: path, bytes: size },
      });
    },
  };
}
