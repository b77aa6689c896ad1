// The CLI's commands, one module each; `toolnorm --help` lists them in this order. A command's
// module (and what it imports: the executor, stores, the compressor) is loaded only when that
// command runs, so `toolnorm normalize` does not pay for the others' start-up.
import type { Command } from './types.js';

export interface CommandEntry {
  name: string;
  /** The one-line summary of `toolnorm --help`; the module's own `summary` must match (tested). */
  summary: string;
  load(): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'normalize', summary: 'turn Claude Code, Codex, OpenCode or ACP recordings into parts, events, ACP frames or UI parts', load: async () => (await import('./normalize.js')).normalizeCommand },
  { name: 'record', summary: 'run an agent CLI, keep its raw output byte for byte, and normalize it live to stdout and/or a store', load: async () => (await import('./record.js')).recordCommand },
  { name: 'exec', summary: 'run a built-in tool (bash, file_read, file_write, file_edit, file_copy, web_fetch) under a policy, as a normalized part', load: async () => (await import('./exec.js')).execCommand },
  { name: 'compress', summary: 'compress one tool output (file or stdin) to a byte, token or line budget; stats on stderr', load: async () => (await import('./compress.js')).compressCommand },
  { name: 'replay', summary: 'rebuild a stored session and print it as parts, events, ACP frames or UI parts', load: async () => (await import('./replay.js')).replayCommand },
  { name: 'sessions', summary: 'list the sessions stored in an event store', load: async () => (await import('./sessions.js')).sessionsCommand },
  { name: 'view', summary: 'write a self-contained HTML timeline of a session\'s tool calls, or serve it live from a store', load: async () => (await import('./view.js')).viewCommand },
];
