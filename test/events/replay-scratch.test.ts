// A repository replays into a state whose parts change in place (its scratch form), and hands
// callers of state() the persistent form: what it returns must behave like any reducer state.
import { describe, expect, it } from 'vitest';
import { projectParts } from '../../src/events/projector.js';
import { PersistentMap } from '../../src/collections/persistent-map.js';
import { reduce } from '../../src/events/reducer.js';
import { ToolRepository } from '../../src/events/repository.js';
import { MemoryEventStore } from '../../src/store/memory.js';
import { eventsRange } from '../store/stream.js';

describe('replay scratch state', () => {
  it('state() is persistent: reducing onto it leaves it unchanged; parts() equals its projection', async () => {
    const store = new MemoryEventStore();
    await store.append('s', eventsRange('s', 0, 400), 0);
    const repo = new ToolRepository(store, { snapshotEvery: 64 });
    const state = await repo.state('s');
    expect(state.parts).toBeInstanceOf(PersistentMap);
    const before = projectParts(state);
    expect(await repo.parts('s')).toEqual(before);
    // A refinement (tool.updated) of the first part: allowed on a finished part, so it changes it.
    const [next] = eventsRange('s', 402, 403);
    expect(next!.type).toBe('tool.updated');
    const after = reduce(state, { ...next!, partId: 'p-0', seq: 401 });
    expect(after.parts.get('p-0')!.title).toBe('Run step 50 (refined)');
    expect(projectParts(state)).toEqual(before);
    expect(state.parts.get('p-0')!.title).toBe('Run step 0 (refined)');
    // From the snapshots taken along the way, the same answer again.
    expect(await repo.parts('s')).toEqual(before);
    expect(projectParts(await repo.state('s', 200))).toEqual(projectParts(await new ToolRepository(store).state('s', 200)));
  });
});
