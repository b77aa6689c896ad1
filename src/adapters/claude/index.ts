// The Claude Code adapter: `claude -p --output-format stream-json --verbose` (with or without
// `--include-partial-messages`), Agent SDK `query()` messages, and on-disk transcripts with their
// subagent files (inline sidechains or `subagents/agent-*.jsonl` + `.meta.json`).
import type { AdapterDefinition } from '../types.js';
import { ClaudeReader } from './reader.js';
import { sniffClaude } from './sniff.js';

export const claudeAdapter: AdapterDefinition = {
  id: 'claude',
  provider: 'claude',
  description: 'Claude Code stream-json / Agent SDK messages and on-disk transcripts (with subagent files)',
  eventsChecked: true,
  sniff: sniffClaude,
  create: (sink, options) => new ClaudeReader(sink, options),
};

export { TOOL_TABLE, KNOWN_TOOL_NAMES, identify } from './tools.js';
