// Database drivers are optional dependencies: a user who only normalizes installs no native
// module. They are loaded on first use with require (both are CommonJS), so a missing one is
// reported as one line naming the package, not as an ERR_MODULE_NOT_FOUND stack trace.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The driver packages and the version line toolnorm is tested with. */
export const DRIVERS = {
  'better-sqlite3': { store: 'SQLite', version: '12' },
  pg: { store: 'PostgreSQL', version: '8' },
} as const;

export type DriverName = keyof typeof DRIVERS;

export class MissingDriverError extends Error {
  override readonly name = 'MissingDriverError';
  constructor(readonly driver: DriverName, cause?: unknown) {
    const d = DRIVERS[driver];
    super(`the ${d.store} event store needs the optional package ${driver}, which is not installed: run \`npm install ${driver}@${d.version}\``, { cause });
  }
}

/** Loads a driver, or throws MissingDriverError when the package (or its native build) is absent. */
export function loadDriver<T>(driver: DriverName): T {
  try {
    return require(driver) as T;
  } catch (err) {
    const code = (err as { code?: string }).code;
    // A package installed with --ignore-scripts has no native binding: it is as good as missing.
    if (code === 'MODULE_NOT_FOUND' || /Could not locate the bindings file|\.node\b/.test(String((err as Error).message))) throw new MissingDriverError(driver, err);
    throw err;
  }
}
