// The stores the conformance suite runs against, each able to hand out fresh, empty locations.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/open.js';
import type { EventStore } from '../../src/store/types.js';
import { dropTestSchemas, freshPostgresUrl, postgresAvailable } from './pg.js';

export interface Backend {
  name: 'memory' | 'sqlite' | 'postgres';
  available: boolean;
  /** Survives close/reopen and is shared by several processes. */
  durable: boolean;
  /** URL of a fresh, empty store. */
  freshUrl(): string;
  open(url: string): Promise<EventStore>;
  cleanup(): Promise<void>;
}

let dir: string | undefined;
let n = 0;

export function tempDir(): string {
  dir ??= mkdtempSync(join(tmpdir(), 'toolnorm-store-'));
  return dir;
}

export function removeTempDir(): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}

export async function backends(): Promise<Backend[]> {
  const pgOk = await postgresAvailable();
  return [
    { name: 'memory', available: true, durable: false, freshUrl: () => 'memory:', open: (u) => openStore(u), cleanup: async () => {} },
    {
      name: 'sqlite',
      available: true,
      durable: true,
      freshUrl: () => `sqlite:${join(tempDir(), `store-${n++}.db`)}`,
      open: (u) => openStore(u),
      cleanup: async () => removeTempDir(),
    },
    { name: 'postgres', available: pgOk, durable: true, freshUrl: freshPostgresUrl, open: (u) => openStore(u), cleanup: dropTestSchemas },
  ];
}
