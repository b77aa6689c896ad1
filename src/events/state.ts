// ToolSessionState: the aggregate the core-tools spec calls "ToolState", renamed because
// `ToolState` is the lifecycle enum of the wire contract (see DESIGN.md).
import type {
  CompressionRecord, Diagnostic, FileMutationRecord, Provider, ToolCallAssessmentRecord, ToolError, ToolKind, ToolMetadata, ToolState,
} from '../contract/index.js';
import { OwnedMap, PersistentMap, type PartMap } from '../collections/persistent-map.js';

/** Everything known about one part; the projector turns it into a NormalizedToolPart. */
export interface PartRecord {
  readonly id: string;
  /** First-seen position within the session. */
  readonly index: number;
  readonly sessionId: string;
  readonly provider: Provider;
  readonly name: string;
  readonly kind: ToolKind;
  readonly title: string;
  readonly input: unknown;
  /** Accumulated `tool.input.delta` text; cleared when a full input arrives. */
  readonly inputBuffer?: string;
  readonly state: ToolState;
  /** The full, original output. Compression never replaces it. */
  readonly output?: unknown;
  readonly hasOutput: boolean;
  readonly error?: ToolError;
  /** Time of the part's first event, when that event has one (never invented). */
  readonly startedAt?: number;
  readonly completedAt?: number;
  /** Provider-reported duration, preferred over completedAt − startedAt. */
  readonly elapsedMs?: number;
  readonly metadata: ToolMetadata;
  /** The last progress note. */
  readonly progressMessage?: string;
  /** Tail of streamed output (bounded) and the total bytes streamed. */
  readonly streamed?: { readonly tail: string; readonly bytes: number };
  readonly compressed?: { readonly output: unknown; readonly record: CompressionRecord };
  readonly mutations: readonly FileMutationRecord[];
  readonly assessment?: ToolCallAssessmentRecord;
  /** Created by an event other than `tool.started` (e.g. a result before its call). */
  readonly orphan: boolean;
  /** Seq of the terminal event, when the events came from a store. */
  readonly terminalSeq?: number;
  /** Latest event time seen; undefined while no event of the part had one. */
  readonly lastAt?: number;
  /**
   * Upper bound of `JSON.stringify(metadata).length`, kept so the metadata budget is checked
   * without serializing the whole metadata on every merge.
   */
  readonly metadataChars: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A fresh copy of a record with every field present, in one fixed order: records then share one
 * hidden class, which keeps the reducer's property accesses monomorphic (spreads of records with
 * differing optional fields do not).
 */
export function copyRecord(p: PartRecord): Mutable<PartRecord> {
  return {
    id: p.id,
    index: p.index,
    sessionId: p.sessionId,
    provider: p.provider,
    name: p.name,
    kind: p.kind,
    title: p.title,
    input: p.input,
    inputBuffer: p.inputBuffer,
    state: p.state,
    output: p.output,
    hasOutput: p.hasOutput,
    error: p.error,
    startedAt: p.startedAt,
    completedAt: p.completedAt,
    elapsedMs: p.elapsedMs,
    metadata: p.metadata,
    progressMessage: p.progressMessage,
    streamed: p.streamed,
    compressed: p.compressed,
    mutations: p.mutations,
    assessment: p.assessment,
    orphan: p.orphan,
    terminalSeq: p.terminalSeq,
    lastAt: p.lastAt,
    metadataChars: p.metadataChars ?? (JSON.stringify(p.metadata) ?? '').length,
  };
}

/** Immutable cons list: the reducer prepends without copying. */
export type List<T> = { readonly head: T; readonly tail: List<T> } | null;

export function listToArray<T>(list: List<T>): T[] {
  const out: T[] = [];
  for (let l = list; l; l = l.tail) out.push(l.head);
  return out.reverse();
}

export interface ToolSessionState {
  readonly parts: PartMap<PartRecord>;
  readonly nextIndex: number;
  readonly diagnostics: List<Diagnostic>;
  readonly diagnosticCount: number;
  /** Highest `seq` applied (0 before any stored event). */
  readonly lastSeq: number;
  readonly eventCount: number;
}

/**
 * A session state with some fields replaced, built as one literal in the reducer's key order:
 * a spread makes objects of another hidden class, and states of two classes make every reader
 * polymorphic.
 */
export function withState(s: ToolSessionState, change: Partial<ToolSessionState>): ToolSessionState {
  return {
    parts: change.parts ?? s.parts,
    nextIndex: change.nextIndex ?? s.nextIndex,
    diagnostics: change.diagnostics !== undefined ? change.diagnostics : s.diagnostics,
    diagnosticCount: change.diagnosticCount ?? s.diagnosticCount,
    lastSeq: change.lastSeq ?? s.lastSeq,
    eventCount: change.eventCount ?? s.eventCount,
  };
}

export const TERMINAL: ReadonlySet<ToolState> = new Set(['complete', 'error']);

/**
 * A session before any event. `owned` states keep their parts in an OwnedMap, changed in place:
 * only for a consumer that holds the latest state alone (the streaming pipeline); replays,
 * snapshots and the property tests use the persistent default.
 */
export function emptySessionState(owned = false): ToolSessionState {
  return { parts: owned ? new OwnedMap<PartRecord>() : PersistentMap.empty<PartRecord>(), nextIndex: 0, diagnostics: null, diagnosticCount: 0, lastSeq: 0, eventCount: 0 };
}

/** The same state with its parts in a map of the other kind (owned: changed in place; persistent: shared). */
export function withPartMap(s: ToolSessionState, owned: boolean): ToolSessionState {
  if ((s.parts instanceof OwnedMap) === owned) return s;
  let parts: PartMap<PartRecord> = owned ? new OwnedMap<PartRecord>() : PersistentMap.empty<PartRecord>();
  for (const [id, p] of s.parts.entries()) parts = parts.set(id, p);
  return withState(s, { parts });
}
