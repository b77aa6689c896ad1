// The documented mapping between toolnorm's ToolKind and ACP v1's ten ToolKinds (docs/providers/acp.md#kind-mapping).
import type { AcpToolCallStatus, AcpToolKind, FileOperation, NormalizedToolPart, ToolKind, ToolState } from '../contract/index.js';
import { ownKeysOnly } from '../adapters/shared/table.js';

/** toolnorm kind → ACP kind, for encoding. */
export const ACP_KIND_OF: Record<ToolKind, AcpToolKind> = {
  file_read: 'read',
  file_write: 'edit',
  file_edit: 'edit',
  bash: 'execute',
  web_search: 'fetch',
  browser: 'fetch',
  subagent: 'think',
  todo: 'think',
  mcp: 'other',
  question: 'other',
  unknown: 'other',
};
ownKeysOnly(ACP_KIND_OF);

/**
 * ACP has finer buckets than our kinds for some calls, told apart by their substance, never by the
 * tool's name or input: a workspace read that carries `metadata.search` is a `search`, and a file
 * call whose every change deletes (or renames) files is a `delete` (a `move`).
 */
const FILE_OPERATION_KIND: Partial<Record<FileOperation, AcpToolKind>> = { delete: 'delete', rename: 'move' };
const FILE_CHANGING = new Set<ToolKind>(['file_write', 'file_edit']);

export function acpKindOf(part: Pick<NormalizedToolPart, 'kind' | 'metadata'>): AcpToolKind {
  if (part.kind === 'file_read' && part.metadata?.search) return 'search';
  const files = part.metadata?.files;
  if (FILE_CHANGING.has(part.kind) && files?.length) {
    const kinds = new Set(files.map((f) => FILE_OPERATION_KIND[f.operation]));
    if (kinds.size === 1) {
      const [only] = kinds;
      if (only) return only;
    }
  }
  return ACP_KIND_OF[part.kind];
}

/** ACP kind → toolnorm kind, for decoding frames of agents that are not toolnorm. */
export const TOOL_KIND_OF: Record<AcpToolKind, ToolKind> = {
  read: 'file_read',
  edit: 'file_edit',
  delete: 'file_edit',
  move: 'file_edit',
  search: 'file_read',
  execute: 'bash',
  think: 'subagent',
  fetch: 'web_search',
  switch_mode: 'question',
  other: 'unknown',
};
ownKeysOnly(TOOL_KIND_OF);

export const ACP_STATUS_OF: Record<ToolState, AcpToolCallStatus> = {
  started: 'pending',
  running: 'in_progress',
  complete: 'completed',
  error: 'failed',
};
ownKeysOnly(ACP_STATUS_OF);

export const TOOL_STATE_OF: Record<AcpToolCallStatus, ToolState> = {
  pending: 'started',
  in_progress: 'running',
  completed: 'complete',
  failed: 'error',
};
ownKeysOnly(TOOL_STATE_OF);
