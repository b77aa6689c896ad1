// Failed tool results → ToolError. Claude Code marks every failure with `is_error: true` and
// puts the reason in text only (docs/providers/claude.md#error-results), so the code comes from an ordered table of
// signals: permission records first, then the text.
import type { ToolError } from '../../contract/index.js';

export interface FailureSignals {
  /** The tool_result text, wrappers included. */
  text: string;
  /** The structured result (an `Error: …` string on failures), when present. */
  structured?: unknown;
  /** A `system/permission_denied`, a `reject` permission decision, `non_execution_kind`/`toolDenialKind`. */
  denied: boolean;
  /** The tool runs shell commands (its `Exit code N` is an exit status). */
  shell: boolean;
}

export interface Classified {
  error: ToolError;
  exitCode?: number;
}

const WRAPPER = /<\/?tool_use_error>/g;

/** The human text of a failure: `<tool_use_error>` wrappers and model-facing reminders removed. */
export function failureMessage(text: string): string {
  const inner = stripReminders(text.replace(WRAPPER, '')).trim();
  return inner || 'the tool failed without a message';
}

/** Harness notes for the model (`<system-reminder>…</system-reminder>`), not tool output. */
export function stripReminders(text: string): string {
  const OPEN = '<system-reminder>';
  const CLOSE = '</system-reminder>';
  let start = text.indexOf(OPEN);
  if (start < 0) return text;
  let out = '';
  let from = 0;
  while (start >= 0) {
    const end = text.indexOf(CLOSE, start + OPEN.length);
    if (end < 0) break;
    out += `${text.slice(from, start).trimEnd()}\n`;
    from = end + CLOSE.length;
    while (from < text.length && /\s/.test(text[from]!)) from++;
    start = text.indexOf(OPEN, from);
  }
  const joined = out + text.slice(from);
  // A hand loop, not /\n+$/: the regex tries a match at every newline of a long result.
  let end = joined.length;
  while (end > 0 && joined.charCodeAt(end - 1) === 10) end--;
  return end === joined.length ? joined : joined.slice(0, end);
}

export type Rule = {
  code: ToolError['code'];
  test: (s: FailureSignals, message: string) => boolean;
  /** Where the wording was seen: a recording (corpus file), or the notes when nothing recorded it yet. */
  source: string;
};

// Texts Claude Code uses when a call was not allowed to run: headless denial, interactive
// rejection, and the Bash safety checks that would have asked for approval.
const DENIAL_TEXT = [
  /^Claude requested permissions to use /,
  /haven't granted it yet/,
  /^The user doesn't want to (proceed with|take) this/,
  /^User rejected tool use/,
  /^Permission to use \S+ (has been|was) denied/,
  /requires? (explicit )?approval/,
  /could write to arbitrary files/,
];

/** Ordered: the first rule that matches names the code; `tool_error` otherwise. */
export const RULES: readonly Rule[] = [
  { code: 'denied', test: (s) => s.denied, source: 'system/permission_denied, permission_decision reject (records, not text)' },
  { code: 'cancelled', test: (_s, m) => /^Sibling tool call errored/.test(m), source: 'recorded: fasthooks 2.0.76' },
  { code: 'denied', test: (s, m) => DENIAL_TEXT.some((r) => r.test(m)) || (typeof s.structured === 'string' && /^User rejected tool use/.test(s.structured)), source: 'recorded: 2.1.332 WebFetch "haven\'t granted it yet"; Bash "could write to arbitrary files"' },
  { code: 'unknown_tool', test: (_s, m) => /^(Error: )?No such tool available/.test(m), source: 'recorded: 2.1.332 TodoWrite disabled, MultiEdit removed' },
  { code: 'interrupted', test: (_s, m) => /^\[Request interrupted by user/.test(m) || /^Interrupted by user/.test(m), source: 'notes: "[Request interrupted by user for tool use]" (recorded as a user message, not yet as a tool_result)' },
  { code: 'timeout', test: (_s, m) => /^Command timed out after/.test(m), source: 'notes: Bash timeout text (not recorded yet)' },
  { code: 'exit_nonzero', test: (s, m) => s.shell && /^Exit code -?\d+/.test(m), source: 'recorded: 2.1.332 Bash "Exit code 3"' },
  { code: 'invalid_input', test: (_s, m) => /^InputValidationError\b/.test(m), source: 'recorded: InputValidationError results' },
  { code: 'not_found', test: (_s, m) => /^File does not exist\./.test(m), source: 'recorded: 2.1.332 Read of a missing file "File does not exist. Note: …"' },
];

export function classifyFailure(signals: FailureSignals): Classified {
  const message = failureMessage(signals.text);
  const rule = RULES.find((r) => r.test(signals, message));
  const code = rule?.code ?? 'tool_error';
  const error: ToolError = { message, code };
  // The structured failure is usually `Error: <message>`; keep it only when it says more.
  if (typeof signals.structured === 'string') {
    const s = signals.structured.replace(/^Error: /, '').trim();
    if (s && s !== message && !message.startsWith(s)) error.details = { toolUseResult: signals.structured };
  } else if (signals.structured !== undefined && signals.structured !== null) {
    error.details = { toolUseResult: signals.structured };
  }
  const out: Classified = { error };
  if (code === 'exit_nonzero') out.exitCode = Number(/^Exit code (-?\d+)/.exec(message)![1]);
  return out;
}
