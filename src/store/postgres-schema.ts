// The PostgreSQL event-store schema, as forward migrations, for a given (quoted) schema name.
// Append-only: never edit a released entry, add the next version instead.
import type { Migration } from './migrations.js';

export function postgresMigrations(schema: string): Migration[] {
  return [
    {
      version: 1,
      description: 'streams, events and snapshots',
      up: `
        -- One row per session. Its head is the optimistic-concurrency gate: an append updates it
        -- only WHERE head = expected, and the row lock makes concurrent appenders to one session
        -- queue behind each other, so the loser re-checks against the winner's head.
        CREATE TABLE ${schema}.toolnorm_streams (
          id bigserial PRIMARY KEY,
          session_id text NOT NULL UNIQUE,
          head integer NOT NULL CHECK (head >= 0),
          first_at bigint,
          last_at bigint,
          updated_at timestamptz NOT NULL DEFAULT now()
        );
        -- Event JSON without its seq (text, so every JSON string survives byte for byte; cast to
        -- jsonb to query). The primary key makes a duplicate position impossible whatever the client does.
        CREATE TABLE ${schema}.toolnorm_events (
          session_id text NOT NULL,
          seq integer NOT NULL CHECK (seq >= 1),
          type text NOT NULL,
          part_id text NOT NULL,
          at bigint NOT NULL,
          body text NOT NULL,
          PRIMARY KEY (session_id, seq)
        );
        CREATE TABLE ${schema}.toolnorm_snapshots (
          session_id text NOT NULL,
          seq integer NOT NULL CHECK (seq >= 0),
          data text NOT NULL,
          saved_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (session_id, seq)
        );
      `,
    },
    {
      version: 2,
      description: 'events without a time',
      // An event carries no `at` when neither the provider nor an explicit clock gave one: NULL, never an invented 0.
      up: `ALTER TABLE ${schema}.toolnorm_events ALTER COLUMN at DROP NOT NULL;`,
    },
  ];
}
