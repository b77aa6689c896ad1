// The SQLite event-store schema, as forward migrations. Append-only: never edit a released entry,
// add the next version instead.
import type { Migration } from './migrations.js';

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'streams, events and snapshots',
    up: `
      -- One row per session: the head is the optimistic-concurrency gate, updated in the same
      -- transaction as the events it counts.
      CREATE TABLE streams (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL UNIQUE,
        head INTEGER NOT NULL CHECK (head >= 0),
        first_at INTEGER,
        last_at INTEGER
      );
      -- Event JSON without its seq; (stream, seq) is unique, so a position can never be written twice.
      CREATE TABLE events (
        stream INTEGER NOT NULL,
        seq INTEGER NOT NULL CHECK (seq >= 1),
        type TEXT NOT NULL,
        part_id TEXT NOT NULL,
        at INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (stream, seq)
      );
      CREATE TABLE snapshots (
        session_id TEXT NOT NULL,
        seq INTEGER NOT NULL CHECK (seq >= 0),
        data TEXT NOT NULL,
        saved_at INTEGER NOT NULL,
        PRIMARY KEY (session_id, seq)
      );
    `,
  },
  {
    version: 2,
    description: 'events without a time',
    // An event carries no `at` when neither the provider nor an explicit clock gave one; its row
    // stores NULL rather than an invented 0. SQLite cannot drop NOT NULL in place: the table is
    // rebuilt once, in the migration's transaction.
    up: `
      CREATE TABLE events_v2 (
        stream INTEGER NOT NULL,
        seq INTEGER NOT NULL CHECK (seq >= 1),
        type TEXT NOT NULL,
        part_id TEXT NOT NULL,
        at INTEGER,
        body TEXT NOT NULL,
        PRIMARY KEY (stream, seq)
      );
      INSERT INTO events_v2 (stream, seq, type, part_id, at, body) SELECT stream, seq, type, part_id, at, body FROM events;
      DROP TABLE events;
      ALTER TABLE events_v2 RENAME TO events;
    `,
  },
];
