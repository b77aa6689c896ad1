// JSON codec for ToolSessionState snapshots (the persistent map is rebuilt on decode).
import type { Diagnostic } from '../contract/index.js';
import type { StateCodec } from './replayer.js';
import { PersistentMap } from '../collections/persistent-map.js';
import { copyRecord, listToArray, type List, type PartRecord, type ToolSessionState } from './state.js';

interface Encoded { v: 1; parts: PartRecord[]; diagnostics: Diagnostic[]; nextIndex: number; lastSeq: number; eventCount: number }

export const sessionStateCodec: StateCodec<ToolSessionState> = {
  encode(state) {
    const encoded: Encoded = {
      v: 1,
      parts: [...state.parts.values()].sort((a, b) => a.index - b.index).map(({ metadataChars: _estimate, ...p }) => p as PartRecord),
      diagnostics: listToArray(state.diagnostics),
      nextIndex: state.nextIndex,
      lastSeq: state.lastSeq,
      eventCount: state.eventCount,
    };
    return JSON.parse(JSON.stringify(encoded));
  },
  decode(data) {
    const e = data as Encoded;
    if (!e || e.v !== 1) throw new Error('snapshot: unknown ToolSessionState encoding');
    let parts = PersistentMap.empty<PartRecord>();
    // JSON drops undefined fields; copyRecord restores the one shape every record has.
    for (const p of e.parts) parts = parts.set(p.id, copyRecord(p));
    let diagnostics: List<Diagnostic> = null;
    for (const d of e.diagnostics) diagnostics = { head: d, tail: diagnostics };
    return { parts, nextIndex: e.nextIndex, diagnostics, diagnosticCount: e.diagnostics.length, lastSeq: e.lastSeq, eventCount: e.eventCount };
  },
};
