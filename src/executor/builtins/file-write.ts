// file_write {path, content}: writes a whole file inside a writable root. It does not create
// missing directories: a directory it made would be a side effect no FileMutationRecord shows.
// The write goes through safe-fs: a temporary file in the verified directory, renamed into place.
// Content over maxFileBytes is refused (too_large) before anything is opened.
import { fileChange } from '../../substance/files.js';
import { success, type FileAffectingTool } from '../types.js';
import { writeVerified } from '../safe-fs.js';
import { fsFailure } from './fs-errors.js';
import { DEFAULT_MAX_FILE_BYTES, limitOption, tooLarge } from './limits.js';

export const FileWriteParams = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'File to write; created when missing, replaced when present.' },
    content: { type: 'string', description: 'The whole new content.' },
  },
  required: ['path', 'content'],
  additionalProperties: false,
} as const;
export interface FileWriteInput {
  path: string;
  content: string;
}

export interface FileWriteOptions {
  /** Larger content is refused (default 16 MiB, as file_read, so what is written can be read back). */
  maxFileBytes?: number;
}

export function fileWriteTool(options: FileWriteOptions = {}): FileAffectingTool<FileWriteInput> {
  const maxBytes = limitOption(options.maxFileBytes, DEFAULT_MAX_FILE_BYTES, 'fileWrite.maxFileBytes');
  return {
    name: 'file_write',
    kind: 'file_write',
    tier: 'workspace',
    description: 'Create or replace a file with the given content.',
    params: FileWriteParams,
    paramRoles: { '/path': 'PATH' },
    title: (input, ctx) => `Writing ${ctx.display('/path', input.path)}`,
    // An unusable path is denied by the PATH gate; there is then nothing to record.
    affectedPaths: (_input, ctx) => (ctx.paths['/path'] !== undefined ? [ctx.paths['/path']] : []),
    async execute(input, ctx) {
      const path = ctx.path('/path');
      const shown = ctx.display('/path', input.path);
      const bytes = Buffer.byteLength(input.content, 'utf8');
      if (bytes > maxBytes) {
        return tooLarge(`the content for ${shown} is ${bytes} bytes; files over ${maxBytes} bytes are not written (fileWrite.maxFileBytes)`, bytes, maxBytes);
      }
      let existed: boolean;
      try {
        ({ existed } = writeVerified(path, shown, ctx.policy.files, input.content));
      } catch (err) {
        return fsFailure(err, shown);
      }
      const type = existed ? 'update' : 'create';
      // A new file's text is all of its diff; an overwrite's old text was not read, so it has none.
      const change = existed ? fileChange({ path, operation: 'modify', newText: input.content }) : fileChange({ path, operation: 'create', oldText: null, newText: input.content });
      return success({ text: `${existed ? 'Updated' : 'Created'} ${shown} (${bytes} bytes)`, structured: { type, filePath: path, bytes } }, { files: [change] });
    },
  };
}
