// file_read {path, offset?, limit?}: lines of a text file (1-based offset), or a description of a
// binary one. Reads only; its PATH is checked against the readable roots, and the open against
// them again (safe-fs), so a link or a swapped directory cannot redirect it.
import { createHash } from 'node:crypto';
import { success, type Tool } from '../types.js';
import { fsFailure } from './fs-errors.js';
import { readVerified } from '../safe-fs.js';
import { DEFAULT_MAX_FILE_BYTES, limitOption } from './limits.js';

export const FileReadParams = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'File to read; ~, ~/ and relative paths resolve with ToolPath.' },
    offset: { type: 'integer', minimum: 1, description: 'First line to return, 1-based (default 1).' },
    limit: { type: 'integer', minimum: 1, description: 'Most lines to return (default 2000).' },
  },
  required: ['path'],
  additionalProperties: false,
} as const;
export interface FileReadInput {
  path: string;
  offset?: number;
  limit?: number;
}

export interface FileReadOptions {
  /** Larger files are refused (default 16 MiB). */
  maxFileBytes?: number;
  defaultLimit?: number;
}

/** Bytes sniffed for a NUL, the usual binary test (git and grep do the same). */
const SNIFF = 8000;

export function fileReadTool(options: FileReadOptions = {}): Tool<FileReadInput> {
  const maxBytes = limitOption(options.maxFileBytes, DEFAULT_MAX_FILE_BYTES, 'fileRead.maxFileBytes');
  return {
    name: 'file_read',
    kind: 'file_read',
    tier: 'observe',
    description: 'Read a text file, or a range of its lines.',
    params: FileReadParams,
    paramRoles: { '/path': 'PATH' },
    title: (input, ctx) => `Reading ${ctx.display('/path', input.path)}`,
    async execute(input, ctx) {
      const path = ctx.path('/path');
      const shown = ctx.display('/path', input.path);
      let data: Buffer;
      try {
        ({ data } = await readVerified(path, shown, ctx.policy.files, { maxBytes, signal: ctx.signal }));
      } catch (err) {
        return fsFailure(err, shown, 'fileRead.maxFileBytes');
      }
      if (data.subarray(0, SNIFF).includes(0)) {
        const sha256 = createHash('sha256').update(data).digest('hex');
        return success({ text: `Binary file, ${data.length} bytes`, structured: { type: 'binary', filePath: path, size: data.length, sha256 } });
      }
      const text = data.toString('utf8');
      const lines = text.split('\n');
      if (text.endsWith('\n')) lines.pop();
      const start = (input.offset ?? 1) - 1;
      const limit = input.limit ?? options.defaultLimit ?? 2000;
      const picked = lines.slice(start, start + limit);
      const structured = {
        type: 'text',
        filePath: path,
        startLine: start + 1,
        numLines: picked.length,
        totalLines: lines.length,
        ...(start + picked.length < lines.length ? { truncated: true } : {}),
      };
      return success({ text: picked.join('\n'), structured });
    },
  };
}
