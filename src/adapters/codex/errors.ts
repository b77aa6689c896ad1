// Every error code a Codex call can end with, in one file: the failures Codex states in an item's
// status, an approval or a turn (FAILURES), and, below, its wording for a call that did not do
// what was asked (OUTPUT_ERRORS). Rollouts (and
// app-server `functionCallOutput` items) carry only the text Codex returned to the model
// (`function_call_output.output`, `custom_tool_call_output.output`), so the text decides the error
// code. Each row names the record it was seen in; each is tested by that recorded line
// (test/codex/errors.test.ts). Only the head of a plain-text output is looked at: a refusal is one
// line, and a command's own output never reaches this table (it comes wrapped in `Process exited
// with code N` headers or a JSON envelope, read before).
import type { ToolError } from '../../contract/index.js';

/** A ToolError; `details` only when there are some. */
export function failure(message: string, code: string, details?: unknown): ToolError {
  return details === undefined ? { message, code } : { message, code, details };
}

/** `Exit code 2` and the command's output under it, as a person reads a failed command. */
export const exitMessage = (code: number, body: string | undefined) => {
  const trimmed = body?.replace(/^\s*\n/, '').replace(/\s+$/, '');
  return `Exit code ${code}${trimmed ? `\n${trimmed}` : ''}`;
};

/** A command's non-zero exit: `timeout` when it is Codex's own 124 for a timed-out command. */
export const exitCodeOf = (exitCode: number, body: string | undefined): 'timeout' | 'exit_nonzero' =>
  exitCode === 124 && /timed out/i.test(body ?? '') ? 'timeout' : 'exit_nonzero';

/** The failures Codex says in a status, an approval or a turn, not in text: code and message of each. */
export const FAILURES = {
  /** The user declined (or cancelled) the approval the call asked for. */
  denied: (title: string, cancelled: boolean) => failure(`${title}: ${cancelled ? 'cancelled' : 'declined'} by the user`, 'denied'),
  /** A rollout call whose output says the user rejected it. */
  rejected: (body: string | undefined) => failure(body || 'Rejected by the user', 'denied'),
  /** The item ended `interrupted` or `incomplete`, or never finished. */
  interrupted: (title: string) => failure(`${title}: interrupted before it finished`, 'interrupted'),
  /** Still open when its turn stopped (exec `turn.failed`, rollout `turn_aborted`): why, in the turn's words. */
  turnEnded: (title: string, why: string) => failure(`${title}: ${why}`, 'interrupted'),
  /** Still open when its app-server turn ended `interrupted`. */
  turnInterrupted: (title: string) => failure(`${title}: the turn was interrupted`, 'interrupted'),
  /** Still open when its app-server turn ended `failed` (with the turn's error, when it gave one). */
  turnFailed: (title: string, why: string | undefined) => failure(`${title}: stopped because the turn failed${why ? ` (${why})` : ''}`, 'interrupted'),
  /** A command item that exited non-zero. */
  exit: (exitCode: number, body: string | undefined) => failure(exitMessage(exitCode, body), 'exit_nonzero'),
  /** The item says `failed` and nothing more specific. */
  failed: (title: string) => failure(`${title}: failed`, 'tool_error'),
  /** The tool reported an error in its own words (MCP `isError`, a failed patch, a dynamic tool). */
  toolError: (message: string, details?: unknown) => failure(message, 'tool_error', details),
  /** A request for user input the client answered with an error, or not at all. */
  unanswered: (message: string) => failure(message, 'cancelled'),
};

export interface OutputErrorRow {
  code: 'denied' | 'unknown_tool' | 'tool_error';
  pattern: RegExp;
  /** Where the wording was recorded. */
  source: string;
}

/** First match wins. */
export const OUTPUT_ERRORS: readonly OutputErrorRow[] = [
  {
    code: 'denied',
    pattern: /^(?:(?:patch|exec command|command|request) )?(?:rejected|declined|denied) by (?:the )?user|^aborted by user/i,
    source: 'rollout 0.40 and 0.171 app-server decline: `patch rejected by user`',
  },
  {
    code: 'denied',
    pattern: /^patch rejected:/,
    source: '0.171 exec, approval never: `patch rejected: writing outside of the project; rejected by user approval settings`',
  },
  {
    code: 'denied',
    pattern: /^approval policy is Never; reject command/,
    source: '0.171 exec, approval never: `approval policy is Never; reject command — you cannot ask for escalated permissions …`',
  },
  {
    code: 'denied',
    pattern: /^exec_command failed:.*Rejected\(\\?"rejected by user\\?"\)/s,
    source: '0.171 app-server decline: `exec_command failed: CreateProcess { message: "Rejected(\\"rejected by user\\")" }`',
  },
  {
    code: 'tool_error',
    pattern: /^apply_patch verification failed:/,
    source: '0.171 exec and app-server: `apply_patch verification failed: Failed to find expected lines in …`',
  },
  {
    code: 'unknown_tool',
    pattern: /^unsupported call: \S/,
    source: '0.163 and 0.171: `unsupported call: no_such_tool` (also an MCP tool not loaded yet)',
  },
];

/** The head of an output that the table looks at (outputs can be megabytes). */
const HEAD = 400;

/** The row the text of a plain output matches, if any. */
export function outputError(text: string): OutputErrorRow | undefined {
  const head = text.slice(0, HEAD).trimStart();
  return OUTPUT_ERRORS.find((r) => r.pattern.test(head));
}
