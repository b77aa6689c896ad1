// The normalize store sink's batching: a batch is due at its size limit, and also once its oldest
// event has waited SINK_MAX_AGE_MS, so a slow live session is committed while it runs instead of
// at 1,000 events. A flushed batch is in the store and nothing is pending after it.
import { describe, expect, it } from 'vitest';
import { MemoryEventStore } from '../../src/store/memory.js';
import { EventStoreSink, SINK_BATCH, SINK_MAX_AGE_MS } from '../../src/store/sink.js';
import { eventsRange } from './stream.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('EventStoreSink batches', () => {
  it('nothing pending is never due; a full batch is due at once', async () => {
    const sink = new EventStoreSink(new MemoryEventStore(), 'memory:');
    expect(sink.due()).toBe(false);
    for (const e of eventsRange('s', 0, SINK_BATCH)) sink.add(e);
    expect(sink.pendingEvents).toBe(SINK_BATCH);
    expect(sink.due()).toBe(true);
  });

  it('one event is due once it has waited the maximum age, and is in the store after the flush', async () => {
    const store = new MemoryEventStore();
    const sink = new EventStoreSink(store, 'memory:');
    sink.add(eventsRange('s', 0, 1)[0]!);
    await sleep(SINK_MAX_AGE_MS + 50);
    expect(sink.due()).toBe(true);
    await sink.flush();
    expect(sink.pendingEvents).toBe(0);
    expect(sink.due()).toBe(false);
    expect(await store.head('s')).toBe(1);
  });
});

describe('EventStoreSink group commit', () => {
  it('every session pending at a flush goes to the store in one appendMany (a real SQLite store); a store without it gets one append each', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { SqliteEventStore } = await import('../../src/store/sqlite.js');
    const dir = mkdtempSync(join(tmpdir(), 'toolnorm-sink-'));
    try {
      for (const store of [new SqliteEventStore(join(dir, 'g.db')), new MemoryEventStore()]) {
        const calls: string[] = [];
        // Counts the calls and passes them on to the real store.
        const counted = new Proxy(store, {
          get(target, key, receiver) {
            const v = Reflect.get(target, key, receiver) as unknown;
            if ((key === 'append' || key === 'appendMany') && typeof v === 'function') {
              return (...args: unknown[]) => {
                calls.push(key === 'appendMany' ? `appendMany×${(args[0] as unknown[]).length}` : 'append');
                return (v as (...a: unknown[]) => unknown).apply(target, args);
              };
            }
            return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
          },
        });
        const sink = new EventStoreSink(counted, 'test');
        for (const s of ['a', 'b', 'c']) for (const e of eventsRange(s, 0, 5)) sink.add(e);
        await sink.flush();
        expect(calls).toEqual(store instanceof SqliteEventStore ? ['appendMany×3'] : ['append', 'append', 'append']);
        for (const s of ['a', 'b', 'c']) expect(await store.head(s)).toBe(5);
        // The next flush goes on from the heads the group commit returned.
        for (const e of eventsRange('a', 5, 8)) sink.add(e);
        for (const e of eventsRange('c', 5, 6)) sink.add(e);
        await sink.flush();
        expect([await store.head('a'), await store.head('b'), await store.head('c')]).toEqual([8, 5, 6]);
        expect(sink.stats).toEqual({ appended: 19, alreadyStored: 0, sessions: 3 });
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
