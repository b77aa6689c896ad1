// The kind a tool name implies when the provider's tool table has no row for it: a call to a tool
// that is missing here (OpenCode's `invalid` tool, Claude's "No such tool available", Codex's
// "unsupported call") or a custom tool. The attempted name decides, word by word; a name whose words
// say nothing stays `unknown`.
import type { ToolKind } from '../../contract/index.js';

/** Words of a tool name (`MultiEdit`, `web_fetch`, `list-files`) in lower case. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** First match wins: the more specific intents come before the general ones. */
const WORD_KINDS: readonly (readonly [ToolKind, ReadonlySet<string>])[] = [
  ['todo', new Set(['todo', 'todos', 'todowrite', 'todoread', 'plan'])],
  ['question', new Set(['question', 'ask', 'askuserquestion'])],
  ['subagent', new Set(['agent', 'subagent', 'task', 'delegate', 'batch'])],
  ['web_search', new Set(['web', 'webfetch', 'websearch', 'fetch', 'browse', 'url', 'http'])],
  ['file_edit', new Set(['edit', 'multiedit', 'patch', 'replace', 'str'])],
  ['file_write', new Set(['write', 'create', 'save'])],
  ['file_read', new Set(['read', 'cat', 'view', 'list', 'ls', 'glob', 'grep', 'find', 'search', 'lookup', 'codesearch', 'lsp'])],
  ['bash', new Set(['bash', 'shell', 'exec', 'command', 'terminal', 'sh', 'run', 'execute'])],
];

/** The kind the words of `name` say, or `unknown`. */
export function kindFromName(name: string): ToolKind {
  const words = nameWords(name);
  for (const [kind, set] of WORD_KINDS) if (words.some((w) => set.has(w))) return kind;
  return 'unknown';
}
