// One conformance suite for every EventStore: memory (the reference), SQLite and PostgreSQL.
// Where behaviour is compared, the memory store is the oracle, run side by side on the same calls.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { ToolEvent } from '../../src/contract/index.js';
import { diagnosticsOf, projectParts } from '../../src/events/projector.js';
import { ToolRepository } from '../../src/events/repository.js';
import { followSession } from '../../src/store/follow.js';
import { MemoryEventStore } from '../../src/store/memory.js';
import { alreadyChecked } from '../../src/store/validate.js';
import { ConcurrencyError, InvalidEventError, type EventStore, type StoredEvent } from '../../src/store/types.js';
import { backends } from './backends.js';
import { Child } from './procs.js';
import { bigText, eventAt, eventsRange, EVENTS_PER_PART, rng } from './stream.js';
import { runWriter, type WriterResult } from './writers.js';

const BACKENDS = await backends();

async function all(store: EventStore, sessionId: string, options = {}): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  for await (const e of store.read(sessionId, options)) out.push(e);
  return out;
}

async function thrown(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to throw');
}

/** The stream with some events moved out of order: orphans and late events, so replays carry diagnostics. */
function shuffled(sessionId: string, count: number, seed: number): ToolEvent[] {
  const events = eventsRange(sessionId, 0, count);
  const r = rng(seed);
  for (let k = 0; k < count / 10; k++) {
    const i = Math.floor(r() * count);
    const j = Math.min(count - 1, i + 1 + Math.floor(r() * 30));
    [events[i], events[j]] = [events[j]!, events[i]!];
  }
  return events;
}

afterAll(async () => {
  for (const b of BACKENDS) await b.cleanup();
});

describe.each(BACKENDS)('$name event store conformance', (backend) => {
  describe.skipIf(!backend.available)(`${backend.name}`, () => {
    const withStore = async (fn: (store: EventStore, url: string) => Promise<void>) => {
      const url = backend.freshUrl();
      const store = await backend.open(url);
      try {
        await fn(store, url);
      } finally {
        await store.close();
      }
    };

    it('append/read: batches take consecutive 1-based seqs and read back deep-equal, with seq', async () => {
      await withStore(async (store) => {
        const events = eventsRange('s1', 0, 50);
        expect(await store.append('s1', events.slice(0, 1), 0)).toEqual({ sessionId: 's1', firstSeq: 1, lastSeq: 1 });
        expect(await store.append('s1', events.slice(1, 30), 1)).toEqual({ sessionId: 's1', firstSeq: 2, lastSeq: 30 });
        expect(await store.append('s1', events.slice(30), 30)).toEqual({ sessionId: 's1', firstSeq: 31, lastSeq: 50 });
        await store.append('s2', eventsRange('s2', 0, 3), 0);
        expect(await store.head('s1')).toBe(50);
        expect(await store.head('s2')).toBe(3);
        expect(await store.head('nope')).toBe(0);
        expect(await all(store, 's1')).toEqual(events.map((e, i) => ({ ...e, seq: i + 1 })));
        expect(await all(store, 'nope')).toEqual([]);
        // Ranges and batch sizes, against the memory store.
        const mem = new MemoryEventStore();
        await mem.append('s1', events, 0);
        for (const options of [{ fromSeq: 7 }, { toSeq: 9 }, { fromSeq: 10, toSeq: 12 }, { fromSeq: 0, toSeq: 500 }, { fromSeq: 51 }, { fromSeq: 20, toSeq: 10 }, { batchSize: 7 }, { fromSeq: 3, toSeq: 48, batchSize: 1 }]) {
          expect(await all(store, 's1', options), JSON.stringify(options)).toEqual(await all(mem, 's1', options));
        }
        const sessions = await store.sessions();
        expect(sessions).toEqual([
          { sessionId: 's1', lastSeq: 50, firstAt: events[0]!.at, lastAt: events[49]!.at },
          { sessionId: 's2', lastSeq: 3, firstAt: eventAt('s2', 0).at, lastAt: eventAt('s2', 2).at },
        ]);
      });
    });

    it('stored events are copies: mutating the caller\'s objects afterwards changes nothing', async () => {
      await withStore(async (store) => {
        const events = eventsRange('s', 0, 3);
        const before = structuredClone(events);
        await store.append('s', events, 0);
        (events[0] as { title: string }).title = 'changed';
        expect(await all(store, 's')).toEqual(before.map((e, i) => ({ ...e, seq: i + 1 })));
      });
    });

    it('conflicts: a stale, ahead, negative, fractional or NaN expected seq writes nothing and reports the real head', async () => {
      await withStore(async (store) => {
        await store.append('s', eventsRange('s', 0, 5), 0);
        for (const expected of [0, 4, 6, 100, -1, 4.5, Number.NaN]) {
          const err = await thrown(store.append('s', eventsRange('s', 5, 8), expected));
          expect(err, String(expected)).toBeInstanceOf(ConcurrencyError);
          expect((err as ConcurrencyError).sessionId).toBe('s');
          expect((err as ConcurrencyError).actualSeq).toBe(5);
          expect(Object.is((err as ConcurrencyError).expectedSeq, expected)).toBe(true);
        }
        // A new session's first append must say 0.
        const err = await thrown(store.append('fresh', eventsRange('fresh', 0, 2), 1));
        expect(err).toBeInstanceOf(ConcurrencyError);
        expect((err as ConcurrencyError).actualSeq).toBe(0);
        expect(await store.head('s')).toBe(5);
        expect(await store.head('fresh')).toBe(0);
        expect((await store.sessions()).map((s) => s.sessionId)).toEqual(['s']);
        expect(await all(store, 's')).toHaveLength(5);
        // The right head still works after conflicts.
        expect(await store.append('s', eventsRange('s', 5, 8), 5)).toEqual({ sessionId: 's', firstSeq: 6, lastSeq: 8 });
      });
    });

    it.skipIf(!backend.durable)('appendMany: a group commit writes each batch as append would, and a stale head or invalid event anywhere writes none', async () => {
      await withStore(async (store) => {
        const many = store.appendMany!.bind(store);
        await store.append('a', eventsRange('a', 0, 3), 0);
        expect(await many([
          { sessionId: 'a', events: eventsRange('a', 3, 10), expectedSeq: 3 },
          { sessionId: 'b', events: eventsRange('b', 0, 4), expectedSeq: 0 },
        ])).toEqual([{ sessionId: 'a', firstSeq: 4, lastSeq: 10 }, { sessionId: 'b', firstSeq: 1, lastSeq: 4 }]);
        expect(await all(store, 'a')).toEqual(eventsRange('a', 0, 10).map((e, i) => ({ ...e, seq: i + 1 })));
        expect(await all(store, 'b')).toEqual(eventsRange('b', 0, 4).map((e, i) => ({ ...e, seq: i + 1 })));
        // The second batch is stale: the first, valid on its own (control: append takes it below), is not written either.
        const stale = await thrown(many([
          { sessionId: 'c', events: eventsRange('c', 0, 2), expectedSeq: 0 },
          { sessionId: 'b', events: eventsRange('b', 4, 6), expectedSeq: 3 },
        ]));
        expect(stale).toBeInstanceOf(ConcurrencyError);
        expect((stale as ConcurrencyError).actualSeq).toBe(4);
        const invalid = await thrown(many([
          { sessionId: 'c', events: eventsRange('c', 0, 2), expectedSeq: 0 },
          { sessionId: 'b', events: [{ ...eventAt('b', 4), type: 'tool.nonsense' } as unknown as ToolEvent], expectedSeq: 4 },
        ]));
        expect(invalid).toBeInstanceOf(InvalidEventError);
        expect(await store.head('c')).toBe(0);
        expect(await store.head('b')).toBe(4);
        expect((await store.sessions()).map((x) => x.sessionId)).not.toContain('c');
        expect(await store.append('c', eventsRange('c', 0, 2), 0)).toEqual({ sessionId: 'c', firstSeq: 1, lastSeq: 2 });
      });
    });

    it('an empty batch checks the expected seq and writes nothing, like the memory store', async () => {
      await withStore(async (store) => {
        const mem = new MemoryEventStore();
        for (const s of [store, mem]) {
          expect(await s.append('e', [], 0)).toEqual({ sessionId: 'e', firstSeq: 1, lastSeq: 0 });
          await s.append('e', eventsRange('e', 0, 2), 0);
          expect(await s.append('e', [], 2)).toEqual({ sessionId: 'e', firstSeq: 3, lastSeq: 2 });
          expect(await thrown(s.append('e', [], 1))).toBeInstanceOf(ConcurrencyError);
        }
        expect(await store.sessions()).toEqual(await mem.sessions());
        expect(await all(store, 'e')).toEqual(await all(mem, 'e'));
      });
    });

    it('invalid events: the whole batch is refused with InvalidEventError naming the event, before any write', async () => {
      await withStore(async (store) => {
        await store.append('s', eventsRange('s', 0, 3), 0);
        const good = eventsRange('s', 3, 8);
        const bad: [string, unknown][] = [
          ['missing partId', (({ partId: _p, ...rest }) => rest)(good[2]!)],
          ['unknown type', { ...good[2]!, type: 'tool.exploded' }],
          ['other session', { ...good[2]!, sessionId: 'other' }],
          ['at past the range of a date (negative is valid: before 1970)', { ...good[2]!, at: 8.64e15 + 1 }],
          ['extra property', { ...good[2]!, surprise: true }],
          ['not an object', 'tool.started'],
        ];
        for (const [why, e] of bad) {
          const batch = [...good];
          batch[2] = e as ToolEvent;
          // Invalid wins over a wrong expected seq too: nothing is even compared.
          for (const expected of [3, 99]) {
            const err = await thrown(store.append('s', batch, expected));
            expect(err, why).toBeInstanceOf(InvalidEventError);
            expect((err as InvalidEventError).index, why).toBe(2);
          }
        }
        const first = await thrown(store.append('new', [{ ...eventAt('new', 0), kind: 'nonsense' } as unknown as ToolEvent], 0));
        expect(first).toBeInstanceOf(InvalidEventError);
        expect(await store.head('s')).toBe(3);
        expect(await store.head('new')).toBe(0);
        expect((await store.sessions()).map((x) => x.sessionId)).toEqual(['s']);
        expect(await all(store, 's')).toEqual(eventsRange('s', 0, 3).map((e, i) => ({ ...e, seq: i + 1 })));
      });
    });

    it("the normalize sink's batches skip the second contract check, and nothing else does", async () => {
      await withStore(async (store) => {
        const good = eventsRange('t', 0, 4);
        // Broken on purpose, to see which arrays are checked: a vouched-for array is the sink's own,
        // whose events the pipeline has already validated; no caller of append can vouch.
        const broken = [...good];
        broken[1] = { ...good[1]!, type: 'tool.exploded' } as unknown as ToolEvent;
        const copy = [...broken];
        alreadyChecked(broken);
        const err = await thrown(store.append('t', copy, 0));
        expect(err).toBeInstanceOf(InvalidEventError);
        expect((err as InvalidEventError).index).toBe(1);
        // The session is checked on a vouched-for batch too: a batch cannot land in another session.
        const elsewhere = alreadyChecked([...good]);
        expect(await thrown(store.append('u', elsewhere, 0))).toBeInstanceOf(InvalidEventError);
        expect(await store.head('t')).toBe(0);
        expect(await store.head('u')).toBe(0);
        // The sink's path: the same events, handed over as the sink does, are stored exactly.
        await store.append('t', alreadyChecked([...good]), 0);
        expect(await all(store, 't')).toEqual(good.map((e, i) => ({ ...e, seq: i + 1 })));
      });
    });

    it('large payloads: a 5 MB output and a 2 MB input delta round-trip exactly', async () => {
      await withStore(async (store) => {
        const five = bigText(5 * 1024 * 1024, 1);
        const env = { sessionId: 'big', partId: 'p-0', source: { provider: 'executor' as const } };
        const events: ToolEvent[] = [
          eventAt('big', 0),
          { ...env, at: 2, type: 'tool.input.delta', delta: bigText(2 * 1024 * 1024, 2) },
          { ...env, at: 5, type: 'tool.completed', output: { text: five, lines: five.split('\n').length } },
        ];
        await store.append('big', events, 0);
        const back = await all(store, 'big');
        expect(back).toEqual(events.map((e, i) => ({ ...e, seq: i + 1 })));
        expect(((back[2] as { output: { text: string } }).output.text).length).toBe(5 * 1024 * 1024);
        const parts = await new ToolRepository(store).parts('big');
        const mem = new MemoryEventStore();
        await mem.append('big', events, 0);
        expect(parts).toEqual(await new ToolRepository(mem).parts('big'));
        expect(parts[0]).toMatchObject({ state: 'complete', output: { text: five } });
      });
    });

    it('strings survive byte for byte: NUL, lone surrogates, emoji, quotes, backslashes, deep nesting', async () => {
      await withStore(async (store) => {
        let nested: unknown = 'leaf';
        for (let d = 0; d < 60; d++) nested = { d, next: [nested] };
        const weird = 'nul:\u0000 lone:\ud800 pair:😀 quote:" back:\\ nl:\n tab:\t ctrl:\u0007 bom:\ufeff';
        const e: ToolEvent = { ...(eventAt('w', 0) as object), input: { weird, nested, numbers: [0, -1, 1.5e300, 2 ** 53 - 1, 1e-7] }, title: weird } as ToolEvent;
        await store.append('w', [e], 0);
        expect(await all(store, 'w')).toEqual([{ ...e, seq: 1 }]);
      });
    });

    it('replay equality: parts, diagnostics and invocations equal the in-memory store\'s, with and without snapshots, at many seqs', async () => {
      await withStore(async (store) => {
        const events = shuffled('r', 40 * EVENTS_PER_PART, 7);
        const mem = new MemoryEventStore();
        const r = rng(3);
        for (let i = 0; i < events.length;) {
          const n = 1 + Math.floor(r() * 40);
          const batch = events.slice(i, i + n);
          await store.append('r', batch, i);
          await mem.append('r', batch, i);
          i += batch.length;
        }
        const memRepo = new ToolRepository(mem);
        const plain = new ToolRepository(store);
        const snapshotting = new ToolRepository(store, { snapshotEvery: 37 });
        expect((await memRepo.diagnostics('r')).length).toBeGreaterThan(0);
        expect(await plain.parts('r')).toEqual(await memRepo.parts('r'));
        expect(await plain.parts('r', { output: 'compressed' })).toEqual(await memRepo.parts('r', { output: 'compressed' }));
        expect(await plain.diagnostics('r')).toEqual(await memRepo.diagnostics('r'));
        expect(await plain.invocations('r')).toEqual(await memRepo.invocations('r'));
        // The first full replay writes snapshots; later replays start from them.
        expect(await snapshotting.parts('r')).toEqual(await memRepo.parts('r'));
        expect(await store.loadSnapshot('r')).toMatchObject({ seq: Math.floor(events.length / 37) * 37 });
        // Replays to earlier seqs (the snapshotting repository starts from the newest snapshot at
        // or below each): projected parts and diagnostics as the memory store gives them. Internal
        // caches of the records (e.g. size estimates) may differ after a snapshot; projections may not.
        for (let seq = 1; seq <= events.length; seq += 29) {
          const expected = await memRepo.state('r', seq);
          for (const repo of [plain, snapshotting]) {
            const got = await repo.state('r', seq);
            expect(got.lastSeq).toBe(seq);
            expect(projectParts(got)).toEqual(projectParts(expected));
            expect(diagnosticsOf(got)).toEqual(diagnosticsOf(expected));
          }
        }
      });
    });

    it('snapshots: the newest at or below maxSeq; a later save at the same seq replaces it', async () => {
      await withStore(async (store) => {
        const mem = new MemoryEventStore();
        for (const s of [store, mem]) {
          await s.saveSnapshot({ sessionId: 'x', seq: 10, data: { v: 1, at: 10 } });
          await s.saveSnapshot({ sessionId: 'x', seq: 30, data: { v: 1, at: 30, nested: [1, { a: null }] } });
          await s.saveSnapshot({ sessionId: 'x', seq: 20, data: { v: 1, at: 20 } });
          await s.saveSnapshot({ sessionId: 'x', seq: 20, data: { v: 2, at: 20 } });
          await s.saveSnapshot({ sessionId: 'y', seq: 5, data: 'y' });
        }
        for (const [id, max] of [['x', undefined], ['x', 29], ['x', 20], ['x', 19], ['x', 9], ['x', 0], ['y', 5], ['y', 4], ['z', undefined]] as const) {
          expect(await store.loadSnapshot(id, max), `${id} ${max}`).toEqual(await mem.loadSnapshot(id, max));
        }
        expect(await store.loadSnapshot('x', 25)).toEqual({ sessionId: 'x', seq: 20, data: { v: 2, at: 20 } });
        // Snapshots are not events.
        expect(await store.head('x')).toBe(0);
      });
    });

    it('model check: random appends (right and wrong expected seqs), reads and snapshots agree with the memory store', async () => {
      const op = fc.oneof(
        fc.record({ kind: fc.constant('append' as const), session: fc.constantFrom('a', 'b', 'c'), n: fc.integer({ min: 0, max: 12 }), skew: fc.constantFrom(0, 0, 0, -1, 1, 3) }),
        fc.record({ kind: fc.constant('read' as const), session: fc.constantFrom('a', 'b', 'c', 'none'), from: fc.integer({ min: -1, max: 40 }), to: fc.option(fc.integer({ min: 0, max: 40 })), batch: fc.integer({ min: 1, max: 9 }) }),
        fc.record({ kind: fc.constant('snapshot' as const), session: fc.constantFrom('a', 'b'), seq: fc.integer({ min: 0, max: 40 }), max: fc.option(fc.integer({ min: 0, max: 40 })) }),
      );
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
          // One fresh namespace per run: sessions are prefixed, so one store serves every run.
          const prefix = `run${run++}-`;
          const mem = new MemoryEventStore();
          const url = backend.freshUrl();
          const store = backend.name === 'memory' ? new MemoryEventStore() : await backend.open(url);
          try {
            for (const o of ops) {
              const sid = prefix + o.session;
              if (o.kind === 'append') {
                const head = await mem.head(sid);
                const batch = eventsRange(sid, head, head + o.n);
                const outcome = async (s: EventStore) => s.append(sid, batch, head + o.skew).then((r) => r, (e: Error) => ({ error: e.name, actual: (e as ConcurrencyError).actualSeq }));
                expect(await outcome(store)).toEqual(await outcome(mem));
              } else if (o.kind === 'read') {
                const options = { fromSeq: o.from, toSeq: o.to ?? undefined, batchSize: o.batch };
                expect(await all(store, sid, options)).toEqual(await all(mem, sid, options));
              } else {
                for (const s of [store, mem]) await s.saveSnapshot({ sessionId: sid, seq: o.seq, data: { seq: o.seq, ops: ops.length } });
                expect(await store.loadSnapshot(sid, o.max ?? undefined)).toEqual(await mem.loadSnapshot(sid, o.max ?? undefined));
              }
            }
            expect(await store.sessions()).toEqual(await mem.sessions());
          } finally {
            await store.close();
          }
        }),
        { numRuns: backend.name === 'postgres' ? 15 : 40, seed: 20261130 },
      );
    });

    it(backend.durable ? 'concurrent writers: 4 processes, every event exactly once, gapless, each writer in order' : 'concurrent writers: 4 interleaved in-process writers, every event exactly once, gapless, each writer in order', async () => {
      const url = backend.freshUrl();
      const store = await backend.open(url);
      const WRITERS = 4;
      const COUNT = 240;
      try {
        let results: WriterResult[];
        if (backend.durable) {
          const children = Array.from({ length: WRITERS }, (_, w) => new Child(['writer', url, 'shared', `w${w}`, String(COUNT), '6']));
          await Promise.all(children.map((c) => c.next((l) => l === 'ready')));
          for (const c of children) c.send('go');
          const lines = await Promise.all(children.map((c) => c.next((l) => l.startsWith('{'))));
          await Promise.all(children.map((c) => c.exited));
          results = lines.map((l) => JSON.parse(l) as WriterResult);
        } else {
          results = await Promise.all(Array.from({ length: WRITERS }, (_, w) => runWriter(store, 'shared', `w${w}`, COUNT, 6)));
        }
        for (const r of results) {
          expect(r.otherErrors).toEqual([]);
          expect(r.appended).toBe(COUNT);
        }
        const stored = await all(store, 'shared');
        expect(stored.map((e) => e.seq)).toEqual(Array.from({ length: WRITERS * COUNT }, (_, i) => i + 1));
        for (let w = 0; w < WRITERS; w++) {
          const mine = stored.filter((e) => e.partId.startsWith(`w${w}-`)).map(({ seq: _s, ...e }) => e);
          expect(mine).toEqual(eventsRange('shared', 0, COUNT, { tag: `w${w}` }));
        }
        // Interleaved writers really raced: each lost at least once.
        if (backend.durable) expect(results.reduce((n, r) => n + r.conflicts, 0)).toBeGreaterThan(0);
      } finally {
        await store.close();
      }
    });

    it('follow: a follower gets every event appended by another writer, in order, as they arrive', async () => {
      const url = backend.freshUrl();
      const store = await backend.open(url);
      const TOTAL = 300;
      try {
        await store.append('live', eventsRange('live', 0, 10), 0);
        const stop = new AbortController();
        const seen: number[] = [];
        const follower = (async () => {
          for await (const e of followSession(store, 'live', { fromSeq: 4, signal: stop.signal, pollMs: 200 })) {
            seen.push(e.seq);
            if (e.seq === TOTAL) break;
          }
        })();
        if (backend.durable) {
          const writer = new Child(['writer', url, 'live', 'q', String(TOTAL - 10), '7']);
          await writer.next((l) => l === 'ready');
          writer.send('go');
          await writer.exited;
        } else {
          await runWriter(store, 'live', 'q', TOTAL - 10, 7);
        }
        await Promise.race([follower, new Promise((_, reject) => setTimeout(() => reject(new Error(`follower stuck at ${seen.at(-1)}`)), 20_000))]);
        stop.abort();
        expect(seen).toEqual(Array.from({ length: TOTAL - 3 }, (_, i) => i + 4));
      } finally {
        await store.close();
      }
    });

    // Only the durable stores outlive close(); the memory store has nothing to reopen.
    if (backend.durable) it('reopen: everything appended and snapshotted survives close and reopen', async () => {
      const url = backend.freshUrl();
      const events = eventsRange('p', 0, 100);
      let store = await backend.open(url);
      await store.append('p', events.slice(0, 60), 0);
      await store.append('p', events.slice(60), 60);
      await store.saveSnapshot({ sessionId: 'p', seq: 50, data: { k: 'v' } });
      const sessions = await store.sessions();
      await store.close();
      await expect(store.head('p')).rejects.toThrow(/closed/);
      store = await backend.open(url);
      try {
        expect(await all(store, 'p')).toEqual(events.map((e, i) => ({ ...e, seq: i + 1 })));
        expect(await store.sessions()).toEqual(sessions);
        expect(await store.loadSnapshot('p')).toEqual({ sessionId: 'p', seq: 50, data: { k: 'v' } });
        expect(await store.append('p', eventsRange('p', 100, 101), 100)).toMatchObject({ lastSeq: 101 });
      } finally {
        await store.close();
      }
    });
  });
});
