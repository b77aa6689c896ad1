// Replay trusts rows toolnorm validated on append and does not re-validate them against the schema;
// what it must still catch is a row damaged or changed outside toolnorm. Each kind of damage is
// reported as a StoreCorruptionError naming the session, the seq and the store, by read, by a
// replay to parts and by the CLI (one line, exit 1, no stack trace), on real SQLite and PostgreSQL.
import { afterAll, describe, expect, it } from 'vitest';
import { ToolRepository } from '../../src/events/repository.js';
import { PostgresEventStore } from '../../src/store/postgres.js';
import { StoreCorruptionError } from '../../src/store/serial.js';
import { SqliteEventStore } from '../../src/store/sqlite.js';
import type { EventStore } from '../../src/store/types.js';
import { cli as runCli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { removeTempDir, tempDir } from './backends.js';
import { dropTestSchemas, freshPostgresUrl, pgQuery, postgresAvailable } from './pg.js';
import { eventsRange } from './stream.js';

const PG = await postgresAvailable();

afterAll(async () => {
  await dropTestSchemas();
  removeTempDir();
});

/** Ways a stored row can be damaged, and what the report must say about it. */
const DAMAGE: { name: string; body?: string; remove?: boolean; says: RegExp }[] = [
  { name: 'text that is not JSON', body: '{"type":"tool.progress","partId":', says: /damaged event at seq 1234: its stored text is not JSON/ },
  { name: 'JSON that is not an event', body: '[1,2,3]', says: /damaged event at seq 1234: its stored text is not a toolnorm event of this session/ },
  { name: "another session's event", body: JSON.stringify({ ...eventsRange('other', 0, 1)[0]! }), says: /damaged event at seq 1234: its stored text is not a toolnorm event of this session/ },
  { name: 'an event without its source', body: JSON.stringify({ ...eventsRange('s', 3, 4)[0]!, source: null }), says: /damaged event at seq 1234: its stored text is not a toolnorm event/ },
  { name: 'a deleted row', remove: true, says: /is missing event seq 1234 although its head is past it/ },
];

async function expectCorruption(store: EventStore, where: string, says: RegExp, removed: boolean): Promise<void> {
  const read = async () => { for await (const _ of store.read('s')) { /* drain */ } };
  for (const attempt of [read, () => new ToolRepository(store).parts('s'), () => new ToolRepository(store).state('s')]) {
    const err = await attempt().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(StoreCorruptionError);
    expect((err as StoreCorruptionError).seq).toBe(1234);
    expect((err as Error).message).toMatch(says);
    expect((err as Error).message).toContain('session s in');
    expect((err as Error).message).toContain(where);
  }
  // Events before the damage are handed out and the read stops at it; a hole is found when its
  // page is fetched (fewer rows than seqs), so that page is refused whole.
  let seen = 0;
  await expect((async () => { for await (const e of store.read('s', { batchSize: 500 })) seen = e.seq; })()).rejects.toThrow(StoreCorruptionError);
  expect(seen).toBe(removed ? 1000 : 1233);
}

describe('SQLite: a damaged row is a diagnostic, never a crash or a made-up event', () => {
  for (const d of DAMAGE) {
    it(d.name, async () => {
      const path = `${tempDir()}/corrupt-${d.name.replace(/\W+/g, '-')}.db`;
      const store = new SqliteEventStore(path);
      await store.append('s', eventsRange('s', 0, 2000), 0);
      if (d.remove) store.db.prepare('DELETE FROM events WHERE seq = 1234').run();
      else store.db.prepare('UPDATE events SET body = ? WHERE seq = 1234').run(d.body);
      await expectCorruption(store, path, d.says, !!d.remove);
      // Reading around the damage still works.
      let n = 0;
      for await (const _ of store.read('s', { fromSeq: 1235 })) n++;
      expect(n).toBe(2000 - 1234);
      await store.close();

      const run = await runCli(['replay', '--store', `sqlite:${path}`, '--session', 's'], { cwd: REPO_ROOT });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(d.says);
      expect(run.stderr).toContain(`store sqlite:${path}`);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    });
  }
});

describe.skipIf(!PG)('PostgreSQL: a damaged row is a diagnostic, never a crash or a made-up event', () => {
  for (const d of DAMAGE) {
    it(d.name, async () => {
      const url = freshPostgresUrl();
      const schema = new URL(url).searchParams.get('schema')!;
      const store = await PostgresEventStore.open(url);
      await store.append('s', eventsRange('s', 0, 2000), 0);
      if (d.remove) await pgQuery(url, `DELETE FROM "${schema}".toolnorm_events WHERE seq = 1234`);
      else await pgQuery(url, `UPDATE "${schema}".toolnorm_events SET body = $1 WHERE seq = 1234`, [d.body]);
      await expectCorruption(store, schema, d.says, !!d.remove);
      await store.close();

      const run = await runCli(['replay', '--store', url, '--session', 's', '--to', 'events'], { cwd: REPO_ROOT });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(d.says);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      // Every event before the damage (before its 1000-event page, for a hole) was printed first.
      expect(run.stdout.trim().split('\n')).toHaveLength(d.remove ? 1000 : 1233);
    });
  }
});
