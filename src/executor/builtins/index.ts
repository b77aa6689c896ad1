// The built-in tools, real ones that touch the filesystem.
import type { Tool } from '../types.js';
import { bashTool, type BashOptions } from './bash.js';
import { fileCopyTool } from './file-copy.js';
import { fileEditTool } from './file-edit.js';
import { fileReadTool, type FileReadOptions } from './file-read.js';
import { fileWriteTool } from './file-write.js';

export interface BuiltinOptions {
  bash?: BashOptions;
  fileRead?: FileReadOptions;
}

export function builtinTools(options: BuiltinOptions = {}): Tool[] {
  return [bashTool(options.bash), fileReadTool(options.fileRead), fileWriteTool(), fileEditTool(), fileCopyTool()];
}

export { bashTool, fileCopyTool, fileEditTool, fileReadTool, fileWriteTool };
export { replaceExact, unifiedDiff, type Hunk } from './diff.js';
