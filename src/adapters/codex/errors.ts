// Codex's wording for a call that did not do what was asked, in one table. Rollouts (and
// app-server `functionCallOutput` items) carry only the text Codex returned to the model
// (`function_call_output.output`, `custom_tool_call_output.output`), so the text decides the error
// code. Each row names the record it was seen in; each is tested by that recorded line
// (test/codex/errors.test.ts). Only the head of a plain-text output is looked at: a refusal is one
// line, and a command's own output never reaches this table (it comes wrapped in `Process exited
// with code N` headers or a JSON envelope, read before).

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
