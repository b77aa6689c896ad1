// `--from auto`: is this sample OpenCode? Every form has a tell in its first lines: SSE data
// with OpenCode bus events, run lines with `sessionID`/`part`, and exports or message lists
// whose first lines hold OpenCode ids (`ses_`, `msg_`, `prt_`) under `info`.
import { obj, text } from './part-view.js';
import { RUN_LINE_TYPES } from './reader.js';

const BUS_TYPE = /^(server|session|message|permission|question|file|todo|plugin|project|installation|lsp|tui|pty|command|vcs|catalog|reference|integration|mcp|sync)\.|^sync$/;
const OPENCODE_ID = /"(?:id|sessionID|messageID|partID|aggregateID)"\s*:\s*"(?:ses|msg|prt)_[0-9a-f]{12}/;

const parse = (t: string): unknown => {
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
};

function isBusEvent(v: unknown): boolean {
  const o = obj(v);
  if (!o) return false;
  const e = obj(o.payload) ?? o;
  const type = text(e.type);
  return !!type && BUS_TYPE.test(type) && ('properties' in e || 'syncEvent' in e);
}

function isRunLine(v: unknown): boolean {
  const o = obj(v);
  const type = text(o?.type);
  if (!o || !type || !RUN_LINE_TYPES.has(type)) return false;
  return typeof o.sessionID === 'string' || typeof obj(o.part)?.messageID === 'string';
}

function isMessage(v: unknown): boolean {
  const o = obj(v);
  return !!o && !!obj(o.info) && Array.isArray(o.parts);
}

export function sniffOpenCode(sample: { lines: readonly string[]; file?: string }): number {
  const lines = sample.lines.map((l) => l.trim()).filter(Boolean);
  if (!lines.length) return 0;
  const score = shapeScore(lines);
  // OpenCode's own ids (`ses_`/`msg_`/`prt_` + 12 hex) make it certain: other formats that share a
  // loose shape (a JSON line typed `error`, say) then lose the tie.
  return score > 0 && OPENCODE_ID.test(lines.join('\n')) ? Math.round(Math.min(1, score + 0.05) * 100) / 100 : score;
}

function shapeScore(lines: string[]): number {
  const first = lines[0]!;
  if (/^(data|event|id|retry):|^:/.test(first)) {
    const data = lines.filter((l) => l.startsWith('data:')).map((l) => parse(l.slice(5).trim()));
    return data.some(isBusEvent) ? 0.9 : 0;
  }
  if (first.startsWith('{') || first.startsWith('[')) {
    const v = parse(first);
    if (v !== undefined) {
      if (isRunLine(v) || isBusEvent(v)) return 0.9;
      if (Array.isArray(v) && v.length > 0 && isMessage(v[0])) return 0.9;
      if (obj(v) && (isMessage(v) || (obj(obj(v)!.info) && Array.isArray(obj(v)!.messages)))) return 0.9;
      return 0;
    }
    // A pretty-printed document: an export (`{ "info": { "id": "ses_…"`) or a messages list.
    const head = lines.join('\n');
    if (/"info"\s*:\s*\{/.test(head) && OPENCODE_ID.test(head)) return 0.85;
  }
  return 0;
}
