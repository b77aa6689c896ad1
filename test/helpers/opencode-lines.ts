// Small builders for hand-written OpenCode inputs, and `run`, which puts them through the OpenCode
// adapter (test/helpers/run-lines.ts).
import type { Collected } from '../../src/pipeline/collect.js';
import { opencodeAdapter } from '../../src/adapters/opencode/index.js';
import type { AdapterOptions } from '../../src/adapters/types.js';
import type { NormalizedToolPart } from '../../src/contract/index.js';
import { runLines } from './run-lines.js';

export const SES = 'ses_aaaaaaaaaaaa0000000000000a';
export const CHILD = 'ses_bbbbbbbbbbbb0000000000000b';
export const MSG = 'msg_000000000001AAAAAAAAAAAAAA';
export const CWD = '/work/project';

type Obj = Record<string, unknown>;

/** A ToolPart as 1.18.33 sends it. */
export function toolPart(id: string, tool: string, state: Obj, extra: Obj = {}): Obj {
  return { id, sessionID: SES, messageID: MSG, type: 'tool', callID: `call_${id}`, tool, state, ...extra };
}

export const pending = (): Obj => ({ status: 'pending', input: {}, raw: '' });
export const running = (input: Obj, more: Obj = {}): Obj => ({ status: 'running', input, time: { start: 1000 }, ...more });
export const completed = (input: Obj, output: string, more: Obj = {}): Obj => ({ status: 'completed', input, output, title: '', metadata: { truncated: false }, time: { start: 1000, end: 1500 }, ...more });
export const failed = (input: Obj, error: string, more: Obj = {}): Obj => ({ status: 'error', input, error, time: { start: 1000, end: 1200 }, ...more });

let evt = 0;
/** A `/event` bus event. */
export function busEvent(type: string, properties: Obj): Obj {
  evt++;
  return { id: `evt_${String(evt).padStart(12, '0')}AAAAAAAAAAAAAA`, type, properties };
}
export const partUpdated = (part: Obj, time = 1000): Obj => busEvent('message.part.updated', { sessionID: part.sessionID, part, time });
export const sessionCreated = (id: string, more: Obj = {}): Obj => busEvent('session.created', { sessionID: id, info: { id, directory: CWD, title: 'New session', ...more } });

/** SSE text of bus events, as `GET /event` writes it. */
export const sse = (events: Obj[]): string => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');

/** Ready input text (one unnamed input) or named files through the OpenCode adapter and the reducer. */
export function run(input: string | { name: string; text: string }[], options: AdapterOptions = {}): Collected {
  return runLines(opencodeAdapter, input, options);
}

/** The only part of a single-call input. */
export function onlyPart(input: string | { name: string; text: string }[], options: AdapterOptions = {}): NormalizedToolPart {
  const r = run(input, options);
  if (r.parts.length !== 1) throw new Error(`expected one part, got ${r.parts.length}: ${JSON.stringify(r.diagnostics)}`);
  return r.parts[0]!;
}
