// file_copy {source, path}: `source` is a SOURCE_PATH (read: readable roots), `path` a PATH
// (written: writable roots). Only `path` changes, so only it gets a FileMutationRecord.
import { copyFile, stat } from 'node:fs/promises';
import { failure, success, type FileAffectingTool } from '../types.js';
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
      let size: number;
      let existed = false;
      try {
        const s = await stat(source);
        if (s.isDirectory()) return failure(`${shownSource} is a directory; only files are copied`, 'is_directory');
        size = s.size;
      } catch (err) {
        return fsFailure(err, shownSource);
      }
      try {
        const d = await stat(path);
        if (d.isDirectory()) return failure(`${shown} is a directory`, 'is_directory');
        existed = true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return fsFailure(err, shown);
      }
      if (source === path) return failure(`${shownSource} and ${shown} are the same file`, 'invalid_input');
      try {
        await copyFile(source, path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return failure(`the directory of ${shown} does not exist`, 'not_found');
        return fsFailure(err, shown);
      }
      return success({
        text: `Copied ${shownSource} to ${shown} (${size} bytes)`,
        structured: { type: existed ? 'update' : 'create', source, filePath: path, bytes: size },
      });
    },
  };
}
