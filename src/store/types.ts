// The store interface every backend implements (memory here; SQLite and PostgreSQL in their own
// modules). Async and batched so that a network database fits behind it unchanged.
import type { ToolEvent } from '../contract/index.js';

/** An event as stored: `seq` is always set, 1-based and gapless within its session. */
export type StoredEvent = ToolEvent & { seq: number };

export interface AppendResult {
  sessionId: string;
  /** Seq of the first appended event. */
  firstSeq: number;
  /** Seq of the last appended event; the new head of the stream. */
  lastSeq: number;
}

export interface ReadOptions {
  /** First seq to return (inclusive, default 1). */
  fromSeq?: number;
  /** Last seq to return (inclusive). */
  toSeq?: number;
  /** Events per batch fetched from the backend (default 1000). */
  batchSize?: number;
}

export interface SessionInfo {
  sessionId: string;
  /** Head seq: the number of events in the stream. */
  lastSeq: number;
  /** Epoch ms of the first and last event's `at`. */
  firstAt?: number;
  lastAt?: number;
}

export interface Snapshot {
  sessionId: string;
  /** The snapshot reflects every event up to and including this seq. */
  seq: number;
  /** Codec-encoded state (plain JSON data). */
  data: unknown;
}

/** One session's batch of a group commit (`appendMany`). */
export interface AppendBatch {
  sessionId: string;
  events: readonly ToolEvent[];
  expectedSeq: number;
}

export interface EventStore {
  /**
   * Appends a batch atomically. `expectedSeq` is the head the caller believes the stream has
   * (0 for a new session); if it differs, nothing is written and a ConcurrencyError is thrown.
   * Events are validated before any write; an invalid batch is rejected whole.
   */
  append(sessionId: string, events: readonly ToolEvent[], expectedSeq: number): Promise<AppendResult>;
  /**
   * Several sessions' batches in one transaction (a group commit), each checked as `append` checks
   * it; all are written or none. Optional: the durable stores have it.
   */
  appendMany?(batches: readonly AppendBatch[]): Promise<AppendResult[]>;
  /** Events of one session in seq order. */
  read(sessionId: string, options?: ReadOptions): AsyncIterable<StoredEvent>;
  /** Head seq of a session (0 when it has no events). */
  head(sessionId: string): Promise<number>;
  sessions(): Promise<SessionInfo[]>;
  saveSnapshot(snapshot: Snapshot): Promise<void>;
  /** The newest snapshot whose seq is ≤ `maxSeq` (default: any). */
  loadSnapshot(sessionId: string, maxSeq?: number): Promise<Snapshot | undefined>;
  close(): Promise<void>;
}

/** Optimistic-concurrency conflict: someone else appended first. Never a silent overwrite. */
export class ConcurrencyError extends Error {
  constructor(readonly sessionId: string, readonly expectedSeq: number, readonly actualSeq: number) {
    super(`append to session ${sessionId} expected head seq ${expectedSeq} but the stream is at ${actualSeq}; re-read and retry`);
    this.name = 'ConcurrencyError';
  }
}

/** An append was refused because an event breaks the contract; nothing was written. */
export class InvalidEventError extends Error {
  constructor(readonly sessionId: string, readonly index: number, readonly detail: string) {
    super(`append to session ${sessionId} refused: event ${index} is not a valid ToolEvent: ${detail}`);
    this.name = 'InvalidEventError';
  }
}
