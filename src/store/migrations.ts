// Forward-only schema migrations shared by the durable stores: each store keeps an ordered list,
// records every applied version in its schema version table, and refuses a database written by a
// newer toolnorm instead of guessing at tables it does not know.

export interface Migration {
  /** 1, 2, 3…: applied in order, each exactly once. */
  version: number;
  description: string;
  /** SQL run inside the migration transaction. */
  up: string;
}

export class SchemaVersionError extends Error {
  constructor(readonly where: string, readonly found: number, readonly supported: number) {
    super(`${where} has event-store schema version ${found}, but this toolnorm knows versions up to ${supported}; upgrade toolnorm to open it`);
    this.name = 'SchemaVersionError';
  }
}

/** The migrations still to apply on top of `current`, after checking the list and the version. */
export function pendingMigrations(migrations: readonly Migration[], current: number, where: string): Migration[] {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration list is broken: entry ${i} has version ${m.version}, expected ${i + 1}`);
  });
  const latest = migrations.length;
  if (current > latest) throw new SchemaVersionError(where, current, latest);
  return migrations.slice(current);
}
