// The PostgreSQL server the store tests use: TOOLNORM_PG_URL (.ci/run starts one on loopback and
// sets it). Locally, without a reachable server, the PostgreSQL suites are skipped with a visible
// message; under CI an unreachable server fails the run.
import pg from 'pg';

export const PG_URL = process.env.TOOLNORM_PG_URL;

async function reachable(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

let checked: Promise<boolean> | undefined;

export function postgresAvailable(): Promise<boolean> {
  checked ??= (async () => {
    const problem = PG_URL ? await reachable(PG_URL) : 'TOOLNORM_PG_URL is not set';
    if (!problem) return true;
    if (process.env.CI) throw new Error(`PostgreSQL is required under CI for the store suites: ${problem}`);
    console.warn(`[toolnorm tests] PostgreSQL not reachable (${problem}): PostgreSQL store suites are SKIPPED (set TOOLNORM_PG_URL=postgres://… to run them; CI runs them)`);
    return false;
  })();
  return checked;
}

let counter = 0;
const created: string[] = [];

/** A URL for a fresh, empty schema of its own (created by the store on open). */
export function freshPostgresUrl(): string {
  const schema = `tn_test_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  created.push(schema);
  const u = new URL(PG_URL!);
  u.searchParams.set('schema', schema);
  return u.toString();
}

export async function dropTestSchemas(): Promise<void> {
  if (!created.length || !PG_URL) return;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    for (const s of created.splice(0)) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** One query on a throwaway connection (for looking at the server from outside the store). */
export async function pgQuery(url: string, text: string, values: unknown[] = []): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url.replace(/[?&]schema=[^&]*/, '') });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}
