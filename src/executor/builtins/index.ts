// The built-in tools, real ones that touch the filesystem.
import type { Tool } from '../types.js';
import { bashTool, type BashOptions } from './bash.js';
import { fileCopyTool, type FileCopyOptions } from './file-copy.js';
import { fileEditTool, type FileEditOptions } from './file-edit.js';
import { fileReadTool, type FileReadOptions } from './file-read.js';
import { fileWriteTool, type FileWriteOptions } from './file-write.js';
import { webFetchTool, type WebFetchOptions } from './web-fetch.js';

export interface BuiltinOptions {
  bash?: BashOptions;
  fileRead?: FileReadOptions;
  fileWrite?: FileWriteOptions;
  fileEdit?: FileEditOptions;
  fileCopy?: FileCopyOptions;
  webFetch?: WebFetchOptions;
}

export function builtinTools(options: BuiltinOptions = {}): Tool[] {
  return [bashTool(options.bash), fileReadTool(options.fileRead), fileWriteTool(options.fileWrite), fileEditTool(options.fileEdit), fileCopyTool(options.fileCopy), webFetchTool(options.webFetch)];
}

export { bashTool, fileCopyTool, fileEditTool, fileReadTool, fileWriteTool, webFetchTool };
export { WEB_FETCH_SPEC, type WebFetchOptions } from './web-fetch.js';
export { replaceExact, unifiedDiff, type Hunk } from './diff.js';
export type { FileCopyOptions, FileEditOptions, FileReadOptions, FileWriteOptions };
