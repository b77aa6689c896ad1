// Rollout call outputs (`function_call_output.output`, `custom_tool_call_output.output`): a string
// that may be JSON (0.40 shell: `{"output", "metadata":{"exit_code","duration_seconds"}}`), a
// header block (0.163: `Process exited with code 2`, `Wall time: …`, `Output:`), plain text, or a
// list of content items. Read once into facts; each call rule decides what they mean.
import { blocksToOutput, mcpResult, type Converted } from './content.js';
import { outputError } from './errors.js';
import { arr, get, int, num, obj, parseMaybeJson, text } from './fields.js';

export interface CallOutput extends Converted {
  /** The text a person reads (the command output without Codex's header lines). */
  text?: string;
  exitCode?: number;
  elapsedMs?: number;
  /** An explicit success flag (`success: false`, MCP `isError`). */
  success?: boolean;
  /** The process is still running (exec_command yielded with a session id). */
  processSession?: number;
  /** The user or the approval policy refused the call (`patch rejected by user`). */
  denied?: boolean;
  /** Codex said the call did not do what was asked (a row of the error table in errors.ts). */
  failure?: string;
  /** The output parsed as JSON, when it was. */
  json?: unknown;
}

const HEADER = /^(Chunk ID|Wall time|Process exited with code|Process running with session ID|Original token count|Total output lines|Exit code)\b:?\s*(.*)$/;
const SANDBOX = /^failed in sandbox\b.*?exit code:? ?(-?\d+)?/is;

function seconds(v: string): number | undefined {
  const m = /^(-?[\d.]+)\s*(ms|milliseconds|s|sec|seconds)?/.exec(v.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  if (!Number.isFinite(n)) return undefined;
  return Math.max(0, Math.round(m[2] === 'ms' || m[2] === 'milliseconds' ? n : n * 1000));
}

/** Codex's `Name: value` header lines up to `Output:`; undefined when the text is not that shape. */
function headerBlock(s: string): CallOutput | undefined {
  if (!HEADER.test(s.slice(0, 64).split('\n', 1)[0] ?? '')) return undefined;
  const out: CallOutput = { truncated: [] };
  let rest = s;
  for (;;) {
    const nl = rest.indexOf('\n');
    const line = nl === -1 ? rest : rest.slice(0, nl);
    rest = nl === -1 ? '' : rest.slice(nl + 1);
    if (line === 'Output:') break;
    const m = HEADER.exec(line);
    if (!m) {
      rest = nl === -1 ? line : `${line}\n${rest}`;
      break;
    }
    const [, key, value] = m as unknown as [string, string, string];
    if (key === 'Process exited with code' || key === 'Exit code') out.exitCode = Number.parseInt(value, 10);
    else if (key === 'Wall time') out.elapsedMs = seconds(value);
    else if (key === 'Process running with session ID') out.processSession = Number.parseInt(value, 10);
    if (!rest) break;
  }
  if (out.exitCode !== undefined && Number.isNaN(out.exitCode)) delete out.exitCode;
  if (out.processSession !== undefined && Number.isNaN(out.processSession)) delete out.processSession;
  out.text = rest;
  return out;
}

/** `own`: the text is Codex's own answer to the call, not a command's output in an envelope. */
function fromText(s: string, own: boolean): CallOutput {
  const header = headerBlock(s);
  if (header) return header;
  const out: CallOutput = { truncated: [], text: s };
  const row = own ? outputError(s) : undefined;
  if (row?.code === 'denied') out.denied = true;
  else if (row) out.failure = row.code;
  const sandbox = SANDBOX.exec(s);
  if (sandbox) {
    out.success = false;
    if (sandbox[1] !== undefined) out.exitCode = Number(sandbox[1]);
  }
  return out;
}

/** Reads a call output in any of its forms. */
export function readCallOutput(raw: unknown): CallOutput {
  const list = arr(raw);
  if (list) {
    const c = blocksToOutput(list, '/output/content');
    return { ...c, text: c.output?.text };
  }
  const o = obj(raw);
  if (o) {
    // FunctionCallOutputPayload as an object: `{content, success}` (or `body`).
    const inner = readCallOutput(o.content ?? o.body ?? o.output ?? '');
    if (typeof o.success === 'boolean') inner.success = o.success;
    return inner;
  }
  const s = text(raw);
  if (s === undefined) return { truncated: [] };
  const parsed = parseMaybeJson(s);
  // A content-item list serialized into the string.
  if (Array.isArray(parsed) && parsed.every((b) => obj(b) && typeof obj(b)!.type === 'string')) return readCallOutput(parsed);
  const j = obj(parsed);
  if (!j) return fromText(s, true);
  // 0.40 shell: {"output": "...", "metadata": {"exit_code": 0, "duration_seconds": 0.1}}
  const meta = obj(j.metadata);
  if (typeof j.output === 'string' && meta) {
    const out = fromText(j.output, false);
    const code = int(get(meta, 'exitCode'));
    if (code !== undefined) out.exitCode = code;
    const secs = num(get(meta, 'durationSeconds'));
    if (secs !== undefined) out.elapsedMs = Math.max(0, Math.round(secs * 1000));
    out.json = j;
    return out;
  }
  // An MCP CallToolResult serialized into the output.
  if (Array.isArray(j.content)) {
    const r = mcpResult(j);
    const out: CallOutput = { ...r, text: r.output?.text, json: j };
    if (r.isError) out.success = false;
    return out;
  }
  const out: CallOutput = { truncated: [], text: s, json: j, output: { text: s, structured: j } };
  if (typeof j.success === 'boolean') out.success = j.success;
  return out;
}
