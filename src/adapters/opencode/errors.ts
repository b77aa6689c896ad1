// How OpenCode's free-text tool errors map to toolnorm's well-known error codes, and how a bash
// call that OpenCode stores as `completed` is recognised as stopped (aborted or timed out).
import { obj, type Obj } from './part-view.js';

export interface ErrorRule {
  code: string;
  /** Matches `state.error` (free text in OpenCode; examples in docs/providers/opencode.md#ids-and-error-texts). */
  pattern: RegExp;
  source: string;
}

/** OpenCode's text when a configured rule (`permission: {bash: {"rm *": "deny"}}`) refused the call. */
export const DENY_RULE = /user has specified a rule which prevents you from using this specific tool call/i;

/** First match wins. */
export const ERROR_RULES: readonly ErrorRule[] = [
  // The processor force-fails every unfinished call when it stops (abort, stream error).
  { code: 'interrupted', pattern: /^Tool execution aborted/, source: 'BIN session processor' },
  { code: 'denied', pattern: DENY_RULE, source: 'CAP run2: a deny rule' },
  { code: 'denied', pattern: /user rejected permission to use this specific tool call/i, source: 'BIN: permission rejected (also auto-reject in `run`)' },
  { code: 'cancelled', pattern: /user dismissed this question/i, source: 'SRC: question rejected' },
  { code: 'not_found', pattern: /^File not found:|\bENOENT\b|no such file or directory/i, source: 'CAP: read of a missing file' },
  { code: 'invalid_input', pattern: /called with invalid arguments|arguments provided to the tool are invalid|^Invalid input for tool/i, source: 'SRC: schema validation of tool arguments' },
  { code: 'timeout', pattern: /\btimed out\b|\btimeout exceeded\b/i, source: 'webfetch / MCP request timeouts' },
];

export interface ErrorContext {
  metadata: Obj;
  /** The user's answer to this call's permission request, when one was seen. */
  permissionReply?: string;
}

export function errorCode(message: string, ctx: ErrorContext): string {
  if (ctx.metadata.interrupted === true) return 'interrupted';
  if (ctx.permissionReply === 'reject') return 'denied';
  return ERROR_RULES.find((r) => r.pattern.test(message))?.code ?? 'tool_error';
}

/**
 * A bash call OpenCode marks `completed` although the command never finished: the shell was
 * killed (`metadata.exit: null`) and the output ends with a `<shell_metadata>` note (1.18.33;
 * `<bash_metadata>` in older versions) saying why.
 */
export function stoppedCommand(output: string | undefined, metadata: Obj): { code: 'cancelled' | 'timeout'; message: string } | undefined {
  if (output === undefined || !('exit' in metadata) || (metadata.exit !== null && metadata.exit !== undefined)) return undefined;
  const note = /<(shell|bash)_metadata>\s*([\s\S]*?)\s*<\/\1_metadata>\s*$/.exec(output)?.[2];
  if (!note) return undefined;
  if (/user aborted/i.test(note)) return { code: 'cancelled', message: note.split('\n').find((l) => /user aborted/i.test(l))!.trim() };
  if (/timeout/i.test(note)) return { code: 'timeout', message: note.split('\n').find((l) => /timeout/i.test(l))!.trim() };
  return undefined;
}

/** The invalid tool's input: `{tool, error}`, the call the model asked for. */
export function invalidCall(input: unknown): { tool?: string; error?: string } {
  const i = obj(input) ?? {};
  return { tool: typeof i.tool === 'string' && i.tool ? i.tool : undefined, error: typeof i.error === 'string' ? i.error : undefined };
}

/**
 * A bash call OpenCode marks `completed` although its command exited non-zero (`metadata.exit: 7`,
 * CAP 1.18.33): the command did not do what was asked, as Claude's and Codex's non-zero exits.
 */
export function nonZeroExit(output: string | undefined, metadata: Obj): { code: 'exit_nonzero'; exitCode: number; message: string } | undefined {
  const exit = metadata.exit;
  if (typeof exit !== 'number' || !Number.isInteger(exit) || exit === 0) return undefined;
  const body = output?.replace(/^\s*\n/, '').replace(/\s+$/, '');
  return { code: 'exit_nonzero', exitCode: exit, message: `Exit code ${exit}${body ? `\n${body}` : ''}` };
}
