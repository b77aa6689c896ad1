import { StringEnum, def } from './helpers.js';

export const TOOL_KINDS = [
  'web_search', 'browser', 'file_read', 'file_write', 'file_edit', 'bash', 'subagent', 'mcp', 'question', 'todo', 'unknown',
] as const;

export const ToolKind = def('ToolKind', StringEnum(TOOL_KINDS, {
  description:
    'Small UI taxonomy for icon and grouping. It is not the provider tool name. `unknown` is reserved for tools no table knows.',
}));

export const PROVIDERS = ['claude', 'codex', 'opencode', 'acp', 'executor'] as const;

export const Provider = def('Provider', StringEnum(PROVIDERS, {
  description: 'Where a tool event came from: a provider adapter, the ACP decoder, or toolnorm\'s own executor.',
}));
