// The default specs, taken from how the agents themselves cut tool output (docs/compression.md#where-the-default-specs-come-from).
// Order matters: the compressor applies the first spec that matches a part.
import type { OutputCompressionSpec } from '../contract/index.js';

export const CLAUDE_BASH_SPEC: OutputCompressionSpec = {
  id: 'claude-bash',
  description:
    'Claude Code Bash: BASH_MAX_OUTPUT_LENGTH defaults to 30,000 characters, cut in the middle. Budgeted here in UTF-8 bytes (the schema has no character budget), which equals characters for ASCII output and is stricter otherwise.',
  match: { providers: ['claude'], kinds: ['bash'] },
  budget: { maxBytes: 30_000 },
  strategy: [{ type: 'head_tail', headRatio: 0.5 }],
  estimator: 'bytes4',
  marker: '... [{omittedLines} lines truncated] ...',
};

export const CODEX_SPEC: OutputCompressionSpec = {
  id: 'codex',
  description:
    'Codex truncation_policy tokens(10_000): bytes/4 token estimate, half of the budget to the head and half to the tail, on UTF-8 boundaries (codex-rs/utils/string/src/truncate.rs).',
  match: { providers: ['codex'] },
  budget: { maxTokens: 10_000 },
  strategy: [{ type: 'head_tail', headRatio: 0.5 }],
  estimator: 'bytes4',
  marker: '…{omittedTokens} tokens truncated…',
};

export const DEFAULT_SPECS: readonly OutputCompressionSpec[] = [CLAUDE_BASH_SPEC, CODEX_SPEC];
