// `--to acp` as a stream encoder of the one output path (src/pipeline/encoder.ts): a thin wrapper of
// AcpEncoder (v1 frames) and AcpV2Translator (the v2 draft). Live (`normalize`, `record`), every
// change of a part sends the frames of what changed; a part only seen final (`replay`) is sent whole,
// a `tool_call` and its outcome. Every v1 frame passes the contract check before it leaves: clients
// silently blank or strip invalid ACP data. v2 frames are translated from checked v1 frames (the
// tests check them against the SDK's schema/v2).
import { issuesOfAcpSessionUpdateParams } from '../contract/index.js';
import type { OutputView } from '../events/projector.js';
import type { PartRecord } from '../events/state.js';
import { checkedSinks, type StreamEncoderFactory } from '../pipeline/encoder.js';
import { AcpEncoder, type AcpFrame } from './encoder.js';
import { AcpV2Translator, type AcpV2Frame } from './encoder-v2.js';

/** An ACP frame as printed by default: wrapped in a JSON-RPC `session/update` notification. */
export interface AcpNotification {
  jsonrpc: '2.0';
  method: 'session/update';
  params: AcpFrame | AcpV2Frame;
}

export interface AcpStreamOptions {
  /** Which output a compressed part shows (default full). */
  output?: OutputView;
  cwd?: string;
  /** The client renders display-only terminals (see AcpEncoderOptions.terminal). */
  terminal?: boolean;
  /** Protocol version 1 (default) or 2, the draft. */
  version?: 1 | 2;
  /** Wrap each frame in a JSON-RPC `session/update` notification (default true). */
  jsonRpc?: boolean;
}

interface SessionFrames {
  encoder: AcpEncoder;
  v2?: AcpV2Translator;
  /** Parts sent live and not final yet, by id: the session's encoder is let go when none is left. */
  open: Map<string, PartRecord>;
}

export const acpStreamEncoder = (options: AcpStreamOptions = {}): StreamEncoderFactory => (outer) => {
  const wrap = options.jsonRpc !== false;
  // One encoder per session: a part id is unique within its session only.
  const sessions = new Map<string, SessionFrames>();
  const sessionOf = (id: string): SessionFrames => {
    let s = sessions.get(id);
    if (!s) {
      s = { encoder: new AcpEncoder({ output: options.output, cwd: options.cwd, terminal: options.terminal }), ...(options.version === 2 ? { v2: new AcpV2Translator() } : {}), open: new Map() };
      sessions.set(id, s);
    }
    return s;
  };
  let v2: AcpV2Translator | undefined;
  // A checked v1 frame goes on as v2 frames when asked for, each wrapped or bare.
  const edge = checkedSinks({
    diagnostic: (d) => outer.diagnostic(d),
    output: (frame) => {
      for (const f of v2 ? v2.translate(frame as AcpFrame) : [frame as AcpFrame]) outer.output(wrap ? ({ jsonrpc: '2.0', method: 'session/update', params: f } satisfies AcpNotification) : f);
    },
  }, issuesOfAcpSessionUpdateParams, (f) => {
    const u = (f as AcpFrame).update;
    // A plan update names its to-do call in _meta (a plan has no call id of its own).
    const id = 'toolCallId' in u ? u.toolCallId : u._meta.toolnorm.partId;
    return { label: `an ACP ${u.sessionUpdate} frame for ${id}`, partId: id };
  });
  const send = (s: SessionFrames, frames: AcpFrame[]) => {
    v2 = s.v2;
    for (const f of frames) edge.output(f);
  };
  return {
    change: (sessionId, _event, _part, record: PartRecord) => {
      const s = sessionOf(sessionId);
      s.open.set(record.id, record);
      send(s, s.encoder.onPart(sessionId, record));
    },
    final: (sessionId, part) => {
      const s = sessionOf(sessionId);
      const record = s.open.get(part.id);
      if (record) {
        s.open.delete(part.id);
        send(s, s.encoder.finish(sessionId, record));
      } else send(s, s.encoder.encodePart(sessionId, part));
      s.v2?.finish(sessionId, part.id);
      if (!s.open.size) sessions.delete(sessionId);
    },
  };
};
