// Failed calls of other agents → `error.code`. ACP carries no error object, so the code comes
// from an ordered table of signals: the client's own reject answer first, then what the protocol
// says (v2 `cancelled`, a terminal's exit status), then the text, read with the Claude rules
// (claude-agent-acp passes Claude Code's result text through unchanged).
import type { ToolError } from '../../contract/index.js';
import { classifyFailure } from '../claude/errors.js';

export interface FailureSignals {
  /** The failure text a client shows (content text, terminal output or rawOutput). */
  text: string;
  status: unknown;
  /** The client answered the call's permission request with a reject option. */
  denied: boolean;
  exitCode?: number | null;
  shell: boolean;
}

interface Rule {
  code: ToolError['code'];
  test: (s: FailureSignals) => boolean;
  why: string;
}

const RULES: readonly Rule[] = [
  { code: 'denied', test: (s) => s.denied, why: 'session/request_permission answered with a reject_* option' },
  { code: 'cancelled', test: (s) => s.status === 'cancelled', why: 'v2 status cancelled' },
  { code: 'exit_nonzero', test: (s) => typeof s.exitCode === 'number' && s.exitCode !== 0, why: 'terminal_exit / exitStatus with a non-zero code' },
];

/** The code, and the exit status a shell failure's text names (`Exit code 3`) when no terminal said it. */
export function classifyAcpFailure(s: FailureSignals): { code: ToolError['code']; exitCode?: number } {
  const rule = RULES.find((r) => r.test(s));
  if (rule) return { code: rule.code };
  const c = classifyFailure({ text: s.text, denied: false, shell: s.shell });
  return c.exitCode !== undefined ? { code: c.error.code, exitCode: c.exitCode } : { code: c.error.code };
}
