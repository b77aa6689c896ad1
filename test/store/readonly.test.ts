// Issue 16, stores: `sessions`, `replay` and `replay --follow` open stores read-only, so they work on
// a read-only SQLite file in a read-only directory and with a read-only PostgreSQL role; and every
// store failure names the store and its cause (read-only, a full disk, a conflict), never
// "cannot read <input>". Permissions mean nothing to root, so as root the CLI runs as `nobody`.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { ToolEvent } from '../../src/contract/index.js';
import { EventStoreSink } from '../../src/store/sink.js';
import { StoreError } from '../../src/store/errors.js';
import { SqliteEventStore } from '../../src/store/sqlite.js';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { dropTestSchemas, freshPostgresUrl, postgresAvailable, PG_URL } from './pg.js';

const PG = await postgresAvailable();
const root = mkdtempSync(join(tmpdir(), 'toolnorm-ro-'));
chmodSync(root, 0o755);
afterAll(async () => {
  // Restore write permission so the tree can be removed.
  for (const d of readdirSync(root)) chmodSync(join(root, d), 0o755);
  rmSync(root, { recursive: true, force: true });
  await dropTestSchemas();
});

const TSX = createRequire(join(REPO_ROOT, 'package.json')).resolve('tsx');
const MAIN = join(REPO_ROOT, 'src/cli/main.ts');
const AS_ROOT = process.getuid?.() === 0;
/**
 * As root, permission bits only bind another user: the CLI runs as `nobody`, which needs to read
 * the checkout and run node. Where it cannot (a clone under /root), these cases cannot be shown
 * and are skipped, loudly.
 */
const CAN_TEST_PERMISSIONS = !AS_ROOT || spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, '-e', `require('fs').accessSync(${JSON.stringify(MAIN)}); require('fs').accessSync(${JSON.stringify(TSX)})`]).status === 0;
if (!CAN_TEST_PERMISSIONS) console.warn('[toolnorm tests] running as root and `nobody` cannot read this checkout or run node: the read-only SQLite file cases are SKIPPED');

/** The CLI as a user the permission bits apply to (`nobody` when the tests run as root). */
function unprivileged(args: string[], cwd = root): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const node = [process.execPath, '--import', TSX, MAIN, ...args];
  const [cmd, ...rest] = AS_ROOT ? ['runuser', '-u', 'nobody', '--', ...node] : node;
  const child = spawn(cmd!, rest, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: root } });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => { out += c; });
  child.stderr.on('data', (c) => { err += c; });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout: out, stderr: err })));
}

const ev = (sessionId: string, partId: string, at: number) => ({ sessionId, partId, at, source: { provider: 'executor' as const } });
const EVENTS: ToolEvent[] = [];
for (let i = 0; i < 5; i++) {
  EVENTS.push({ type: 'tool.started', ...ev('ro', `p${i}`, 1000 + i), name: 'bash', kind: 'bash', title: 'Run', input: { command: 'ls' } });
  EVENTS.push({ type: 'tool.completed', ...ev('ro', `p${i}`, 2000 + i), output: { text: 'ok' } });
}
const input = join(root, 'events.ndjson');
writeFileSync(input, `${EVENTS.map((e) => JSON.stringify(e)).join('\n')}\n`);
chmodSync(input, 0o644);

describe.skipIf(!CAN_TEST_PERMISSIONS)('a read-only SQLite store', () => {
  const storeDir = join(root, 'ro-dir');
  const url = `sqlite:${join(storeDir, 'events.db')}`;

  it('is made by normalize, then its file is 444 and its directory 555', async () => {
    mkdirSync(storeDir);
    expect((await cli(['normalize', '--from', 'events', '--store', url, '--quiet', input])).code).toBe(0);
    chmodSync(join(storeDir, 'events.db'), 0o444);
    chmodSync(storeDir, 0o555);
  });

  it('sessions lists it: exit 0, 10 events, nothing written (no -wal or -shm appears)', async () => {
    const r = await unprivileged(['sessions', '--store', url]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ sessionId: 'ro', events: 10, firstAt: 1000, lastAt: 2004 });
    expect(readdirSync(storeDir)).toEqual(['events.db']);
  }, 30_000);

  it('replay rebuilds it: exit 0, 5 complete parts; --follow up to --to-seq ends with the 10 events', async () => {
    const r = await unprivileged(['replay', '--store', url, '--session', 'ro']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).state)).toEqual(Array(5).fill('complete'));
    const f = await unprivileged(['replay', '--store', url, '--session', 'ro', '--to', 'events', '--follow', '--to-seq', '10']);
    expect(f.code).toBe(0);
    expect(f.stdout.trim().split('\n').map((l) => JSON.parse(l).seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  }, 30_000);

  it('a writer is refused with the store and the cause named: exit 1, "read-only", never "cannot read" the input', async () => {
    const r = await unprivileged(['normalize', '--from', 'events', '--store', url, '--quiet', input]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^toolnorm normalize: cannot open store sqlite:\S+events\.db: the store is read-only \(SQLITE_READONLY\w*: /);
    expect(r.stderr).not.toContain('cannot read');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  }, 30_000);

  it('committed appends still in the -wal (a writer has the store open) are read too: exit 0, all 10 events', async () => {
    const d = join(root, 'wal-dir');
    mkdirSync(d);
    const path = join(d, 'events.db');
    const writer = new SqliteEventStore(path);
    try {
      await writer.append('ro', EVENTS, 0);
      expect(readdirSync(d).sort()).toEqual(['events.db', 'events.db-shm', 'events.db-wal']);
      chmodSync(path, 0o444);
      chmodSync(d, 0o555);
      const r = await unprivileged(['sessions', '--store', `sqlite:${path}`]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ sessionId: 'ro', events: 10, firstAt: 1000, lastAt: 2004 });
    } finally {
      await writer.close();
    }
  }, 30_000);

  it('a 444 file in a writable directory also reads: exit 0', async () => {
    const d = join(root, 'rw-dir');
    mkdirSync(d);
    const u = `sqlite:${join(d, 'events.db')}`;
    expect((await cli(['normalize', '--from', 'events', '--store', u, '--quiet', input])).code).toBe(0);
    chmodSync(d, 0o777);
    chmodSync(join(d, 'events.db'), 0o444);
    const r = await unprivileged(['sessions', '--store', u, '--format', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')[1]!.split(/\s+/)).toEqual(['ro', '10', '1970-01-01T00:00:01.000Z', '1970-01-01T00:00:02.004Z']);
  }, 30_000);
});

describe('store failures name the store and the cause', () => {
  const batch = (sessionId: string, n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ type: 'tool.started', ...ev(sessionId, `q${from + i}`, i), name: 'bash', kind: 'bash', title: 'x'.repeat(2000), input: { command: 'y'.repeat(2000) } }) as ToolEvent);

  it('a full disk (SQLite reports SQLITE_FULL when the file may grow no more): a StoreError "full" naming the store', async () => {
    const path = join(root, 'full.db');
    const store = new SqliteEventStore(path);
    store.db.pragma('max_page_count = 40');
    const sink = new EventStoreSink(store, `sqlite:${path}`);
    for (const e of batch('full', 200)) sink.add(e);
    const err = await sink.flush().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).failure).toBe('full');
    expect((err as Error).message).toMatch(new RegExp(`^store sqlite:${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the disk is full \\(SQLITE_FULL: `));
    await sink.close();
  });

  it('a conflict (another writer appended meanwhile): a StoreError "conflict" naming the store', async () => {
    const path = join(root, 'conflict.db');
    const store = new SqliteEventStore(path);
    const sink = new EventStoreSink(store, `sqlite:${path}`);
    sink.add(batch('c', 1)[0]!);
    await sink.flush();
    const other = new SqliteEventStore(path);
    await other.append('c', batch('c', 1, 1), 1);
    await other.close();
    sink.add(batch('c', 1, 2)[0]!);
    const err = await sink.flush().then(() => undefined, (e: unknown) => e);
    expect((err as StoreError).failure).toBe('conflict');
    expect((err as Error).message).toMatch(/^store sqlite:\S+conflict\.db: conflict: append to session c expected head seq 1 but the stream is at 2/);
    await sink.close();
  });

  it('sessions and replay on a store that is not there: exit 1, the store named, nothing created', async () => {
    const missing = join(root, 'nowhere', 'events.db');
    const s = await cli(['sessions', '--store', `sqlite:${missing}`]);
    expect(s.code).toBe(1);
    expect(s.stderr).toBe(`toolnorm sessions: cannot open store sqlite:${missing}: no event store at ${missing}\n`);
    const r = await cli(['replay', '--store', `sqlite:${missing}`, '--session', 'x']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot open store sqlite:${missing}`);
  });
});

describe.skipIf(!PG)('a read-only PostgreSQL role', () => {
  it('sessions and replay work with SELECT rights only; normalize --store is refused as read-only, the store named', async () => {
    const url = freshPostgresUrl();
    expect((await cli(['normalize', '--from', 'events', '--store', url, '--quiet', input])).code).toBe(0);
    const schema = new URL(url).searchParams.get('schema')!;
    const role = `tn_ro_${process.pid}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.query(`CREATE ROLE ${role} LOGIN`);
      await admin.query(`ALTER ROLE ${role} SET default_transaction_read_only = on`);
      await admin.query(`GRANT USAGE ON SCHEMA "${schema}" TO ${role}`);
      await admin.query(`GRANT SELECT ON ALL TABLES IN SCHEMA "${schema}" TO ${role}`);
      const ro = new URL(url);
      ro.username = role;
      ro.password = '';
      const s = await cli(['sessions', '--store', ro.toString()]);
      expect(s.stderr).toBe('');
      expect(s.code).toBe(0);
      expect(JSON.parse(s.stdout)).toEqual({ sessionId: 'ro', events: 10, firstAt: 1000, lastAt: 2004 });
      const r = await cli(['replay', '--store', ro.toString(), '--session', 'ro']);
      expect(r.code).toBe(0);
      expect(r.lines).toHaveLength(5);
      const w = await cli(['normalize', '--from', 'events', '--store', ro.toString(), '--quiet', input]);
      expect(w.code).toBe(1);
      expect(w.stderr).toMatch(/^toolnorm normalize: cannot open store postgres:\/\/\S+: the store is read-only \(25006: /);
    } finally {
      await admin.query(`DROP OWNED BY ${role}`).catch(() => {});
      await admin.query(`DROP ROLE IF EXISTS ${role}`).catch(() => {});
      await admin.end();
    }
  }, 60_000);
});
