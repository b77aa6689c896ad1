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
