import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isToolEvent, issuesOfNormalizedToolPart, type ToolEvent } from '../../src/contract/index.js';
import { createReducer, reduce, reduceAll } from '../../src/events/reducer.js';
import { projectParts } from '../../src/events/projector.js';
import { emptySessionState, TERMINAL, type ToolSessionState } from '../../src/events/state.js';
import { sessionStateCodec } from '../../src/events/codec.js';
import { EventReplayer } from '../../src/events/replayer.js';
import { MemoryEventStore } from '../../src/store/memory.js';
import { eventStream } from '../helpers/arbitraries.js';

const RUNS = 10_000;

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v as object)) deepFreeze(x);
  }
  return v;
}

const comparable = (s: ToolSessionState) => JSON.parse(JSON.stringify(sessionStateCodec.encode(s)));

describe('reducer properties (fast-check, 10k cases each)', () => {
  it('generated streams are valid ToolEvents (so the properties below are about valid input)', () => {
    fc.assert(fc.property(eventStream(), (events) => events.every((e) => isToolEvent(e))), { numRuns: 2_000 });
  });

  it('never throws and never mutates: inputs are deep-frozen', () => {
    fc.assert(
      fc.property(eventStream(), (events) => {
        let state = deepFreeze(emptySessionState());
        for (const e of events) state = deepFreeze(reduce(state, deepFreeze(e)));
        expect(state.eventCount).toBe(events.length);
      }),
      { numRuns: RUNS },
    );
  });

  it('every projected part validates against the contract, one part per distinct id', () => {
    fc.assert(
      fc.property(eventStream(), (events) => {
        const parts = projectParts(reduceAll(events, emptySessionState()));
        expect(parts.map((p) => p.id).sort()).toEqual([...new Set(events.map((e) => e.partId))].sort());
        for (const p of parts) expect(issuesOfNormalizedToolPart(p)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it('terminal states never regress, and a late state-changing event leaves a diagnostic', () => {
    fc.assert(
      fc.property(eventStream(), (events) => {
        let state = emptySessionState();
        const terminalAt = new Map<string, string>();
        for (const e of events) {
          const before = state.diagnosticCount;
          state = reduce(state, e);
          const p = state.parts.get(e.partId)!;
          const was = terminalAt.get(e.partId);
          if (was) {
            expect(p.state).toBe(was);
            if (['tool.progress', 'tool.completed', 'tool.failed', 'tool.input.delta'].includes(e.type)) expect(state.diagnosticCount).toBeGreaterThan(before);
          }
          if (TERMINAL.has(p.state)) terminalAt.set(e.partId, p.state);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('replaying a prefix (from a snapshot) and then the rest equals replaying it all', async () => {
    await fc.assert(
      fc.asyncProperty(eventStream(20), fc.nat(), async (events, cut) => {
        const store = new MemoryEventStore();
        if (events.length) await store.append('s', events, 0);
        const replayer = new EventReplayer(store, { initial: emptySessionState, reduce, codec: sessionStateCodec });
        const k = events.length ? cut % (events.length + 1) : 0;
        const prefix = await replayer.replay('s', { toSeq: k, noSnapshot: true });
        // Persist the prefix as a snapshot, then let a fresh replay resume from it.
        await store.saveSnapshot({ sessionId: 's', seq: k, data: sessionStateCodec.encode(prefix.state) });
        const resumed = await replayer.replay('s');
        const all = await replayer.replay('s', { noSnapshot: true });
        const rest = await replayer.replay('s', { fromSeq: k + 1, state: prefix.state });
        expect(comparable(resumed.state)).toEqual(comparable(all.state));
        expect(comparable(rest.state)).toEqual(comparable(all.state));
      }),
      { numRuns: RUNS },
    );
  }, 600_000);

  it('reducer options are honoured: a smaller metadata budget keeps every part under it', () => {
    const small = createReducer({ metadataLimitBytes: 256 });
    fc.assert(
      fc.property(eventStream(), (events: ToolEvent[]) => {
        const parts = projectParts(reduceAll(events, emptySessionState(), small));
        for (const p of parts) {
          const m = { ...(p.metadata ?? {}) } as Record<string, unknown>;
          // Protected keys (notes, compression, assessment…) are small by construction and exempt.
          for (const k of ['truncated', 'compression', 'assessment', 'provider', 'rawType', 'mcp', 'parentId', 'childSessionId', 'exitCode']) delete m[k];
          const size = Buffer.byteLength(JSON.stringify(m));
          if (size > 256) throw new Error(`metadata of ${p.id} is ${size} bytes`);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
