// What the viewer page holds: one record per part, built from ToolEvents with the library's
// public modules only (the reducer, the projector and the UI mapping a UI would use), so the
// viewer is a working example of the published output and never reads private state.
import type { CompressionRecord, Diagnostic, NormalizedToolPart, Provider, ToolError, ToolEvent, UiToolPart } from '../contract/index.js';
import { createReducer, type Reducer } from '../events/reducer.js';
import { emptySessionState, type ToolSessionState } from '../events/state.js';
import { diagnosticsOf, projectPart } from '../events/projector.js';
import { toUiPart } from '../ui/to-ui.js';

/** Bumped when the embedded data changes shape; the page refuses data it does not know. */
export const VIEW_DATA_VERSION = 1;

export interface ViewPart {
  /** Session the part belongs to (part ids are unique within a session only). */
  session: string;
  /** The published UI part, with the canonical state names (`toUiPart(part, { states: 'canonical' })`). */
  ui: UiToolPart;
  /** The contract's error ({code, message, details}): the UI part carries only `errorText`. */
  error?: ToolError;
  /** When the output was compressed: the compressed view and how it was made. */
  compression?: ViewCompression;
}

export interface ViewCompression {
  output: unknown;
  record: CompressionRecord;
  /** Whether `ui.output` holds the full original output (false with `omitFull`). */
  fullIncluded: boolean;
}

export interface ViewSession {
  id: string;
  provider?: Provider;
}

export interface ViewData {
  version: typeof VIEW_DATA_VERSION;
  /** What was viewed, for the header: file names or `store URL · session`. Never an absolute path. */
  source: string;
  sessions: ViewSession[];
  parts: ViewPart[];
  diagnostics: Diagnostic[];
  /** Diagnostics left out of the file beyond `maxDiagnostics` (counted, so none vanishes silently). */
  diagnosticsOmitted: number;
  /** The page follows `/events` (server-sent events) for updates. */
  live?: boolean;
}

export interface ViewOptions {
  /** Leave the full text of compressed outputs out of the file (default: keep it). */
  omitFull?: boolean;
  /** Diagnostics written into the file; the rest are counted (default 1000). */
  maxDiagnostics?: number;
}

interface SessionAcc {
  state: ToolSessionState;
  provider?: Provider;
  /** Reducer diagnostics already taken into the view. */
  diagnosticsTaken: number;
}

/** The child session a subagent part spawned, when the contract names one. */
export const childSessionOf = (part: Pick<NormalizedToolPart, 'metadata'>): string | undefined => {
  const c = part.metadata?.childSessionId;
  return typeof c === 'string' && c ? c : undefined;
};

const keyOf = (session: string, partId: string) => `${session}\u0000${partId}`;

/**
 * Accumulates events (from a file's normalization or a store) and turns them into view records.
 * Live mode keeps one and asks for the parts each new event changed.
 */
export class ViewBuilder {
  private readonly reducer: Reducer = createReducer();
  private readonly sessions = new Map<string, SessionAcc>();
  private readonly compressions = new Map<string, { output: unknown; record: CompressionRecord }>();
  private readonly diagnostics: Diagnostic[] = [];
  private diagnosticCount = 0;
  events = 0;

  constructor(readonly options: ViewOptions = {}) {}

  /** Applies one event; returns the session and part it touched. */
  add(e: ToolEvent): { session: string; partId: string } {
    let acc = this.sessions.get(e.sessionId);
    if (!acc) {
      acc = { state: emptySessionState(true), diagnosticsTaken: 0 };
      this.sessions.set(e.sessionId, acc);
    }
    acc.provider ??= e.source?.provider;
    acc.state = this.reducer(acc.state, e);
    if (e.type === 'tool.output.compressed') this.compressions.set(keyOf(e.sessionId, e.partId), { output: e.output, record: e.compression });
    this.events++;
    return { session: e.sessionId, partId: e.partId };
  }

  addDiagnostic(d: Diagnostic): void {
    this.diagnosticCount++;
    if (this.diagnostics.length < (this.options.maxDiagnostics ?? 1000)) this.diagnostics.push(d);
  }

  /**
   * The reducer's own diagnostics (events for unknown parts, …) not taken yet, added to the
   * view and returned; for stores, where nothing upstream reported them.
   */
  takeReducerDiagnostics(): Diagnostic[] {
    const fresh: Diagnostic[] = [];
    for (const acc of this.sessions.values()) {
      if (acc.state.diagnosticCount === acc.diagnosticsTaken) continue;
      const all = diagnosticsOf(acc.state);
      fresh.push(...all.slice(acc.diagnosticsTaken));
      acc.diagnosticsTaken = all.length;
    }
    for (const d of fresh) this.addDiagnostic(d);
    return fresh;
  }

  /** What the page shows of the diagnostics: those kept, and how many more there were. */
  diagnosticList(): { diagnostics: Diagnostic[]; diagnosticsOmitted: number } {
    return { diagnostics: this.diagnostics, diagnosticsOmitted: this.diagnosticCount - this.diagnostics.length };
  }

  /** Sessions named by a subagent part's `metadata.childSessionId`, in first-seen order. */
  childSessions(): string[] {
    const out = new Set<string>();
    for (const acc of this.sessions.values()) {
      for (const r of acc.state.parts.values()) {
        const child = childSessionOf(r);
        if (child) out.add(child);
      }
    }
    return [...out];
  }

  /** The child session the part spawned, when it names one (cheap: no projection). */
  childSessionOf(session: string, partId: string): string | undefined {
    const r = this.sessions.get(session)?.state.parts.get(partId);
    return r ? childSessionOf(r) : undefined;
  }

  part(session: string, partId: string): ViewPart | undefined {
    const record = this.sessions.get(session)?.state.parts.get(partId);
    return record ? this.view(session, projectPart(record)) : undefined;
  }

  private view(session: string, part: NormalizedToolPart): ViewPart {
    const ui = toUiPart(part, { states: 'canonical' });
    const out: ViewPart = { session, ui };
    if (part.state === 'error') out.error = part.error;
    const c = part.state === 'complete' ? this.compressions.get(keyOf(session, part.id)) : undefined;
    if (c) {
      const fullIncluded = !this.options.omitFull && 'output' in ui;
      if (!fullIncluded) delete ui.output;
      out.compression = { output: c.output, record: c.record, fullIncluded };
    }
    return out;
  }

  /** Every part, sessions in first-seen order and parts in first-seen order within each. */
  parts(): ViewPart[] {
    const out: ViewPart[] = [];
    for (const [id, acc] of this.sessions) {
      const records = [...acc.state.parts.values()].sort((a, b) => a.index - b.index);
      for (const r of records) out.push(this.view(id, projectPart(r)));
    }
    return out;
  }

  sessionList(): ViewSession[] {
    return [...this.sessions].map(([id, acc]) => (acc.provider ? { id, provider: acc.provider } : { id }));
  }

  data(source: string, live = false): ViewData {
    const data: ViewData = {
      version: VIEW_DATA_VERSION,
      source,
      sessions: this.sessionList(),
      parts: this.parts(),
      ...this.diagnosticList(),
    };
    if (live) data.live = true;
    return data;
  }
}
