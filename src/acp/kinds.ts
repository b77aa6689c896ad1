// The documented mapping between toolnorm's ToolKind and ACP v1's ten ToolKinds (docs/providers/acp.md#kind-mapping).
import type { AcpToolCallStatus, AcpToolKind, ToolKind, ToolState } from '../contract/index.js';
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
 * Search-like tools read the workspace (our kind `file_read`) but ACP has a better bucket for
 * them; matched on the canonical name, case-insensitively.
 */
export const ACP_SEARCH_NAMES = new Set(['grep', 'glob', 'ls', 'list', 'codesearch', 'search', 'find', 'toolsearch']);

export function acpKindOf(kind: ToolKind, name: string): AcpToolKind {
  if (kind === 'file_read' && ACP_SEARCH_NAMES.has(name.toLowerCase())) return 'search';
  return ACP_KIND_OF[kind];
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
