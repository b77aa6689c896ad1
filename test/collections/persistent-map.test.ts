// The HAMT behind ToolSessionState against a plain Map model: same contents and size after any
// sequence of sets and deletes, and every older version unchanged (structural sharing).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OwnedMap, PersistentMap } from '../../src/collections/persistent-map.js';
import { reduceAll } from '../../src/events/reducer.js';
import { projectParts } from '../../src/events/projector.js';
import { emptySessionState, listToArray } from '../../src/events/state.js';
import { eventStream } from '../helpers/arbitraries.js';

// Few distinct keys so sets overwrite and deletes hit; short keys so hashes collide in low bits.
const key = fc.oneof(fc.constantFrom('a', 'b', 'toolu_1', 'toolu_2', 'call_x', ''), fc.string({ maxLength: 3 }));
const op = fc.oneof(fc.tuple(fc.constant('set' as const), key, fc.nat(1000)), fc.tuple(fc.constant('delete' as const), key, fc.constant(0)));

describe('PersistentMap', () => {
  it('matches a Map model and keeps every earlier version intact (5k sequences)', () => {
    fc.assert(fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
      let m = PersistentMap.empty<number>();
      const model = new Map<string, number>();
      const versions: [PersistentMap<number>, Map<string, number>][] = [];
      for (const [kind, k, v] of ops) {
        if (kind === 'set') { m = m.set(k, v); model.set(k, v); } else { m = m.delete(k); model.delete(k); }
        versions.push([m, new Map(model)]);
        expect(m.size).toBe(model.size);
        expect(m.get(k)).toBe(model.get(k));
      }
      for (const [version, snapshot] of versions) {
        expect(new Map(version.entries())).toEqual(snapshot);
        expect(version.size).toBe(snapshot.size);
      }
    }), { numRuns: 5000 });
  });

  it('keeps keys whose 32-bit hashes collide apart', () => {
    // FNV-1a collisions, found by search: each pair hashes to the same 32 bits.
    const pairs = [['id522789', 'id739192'], ['id522788', 'id739193'], ['id522783', 'id739198']];
    let m = PersistentMap.empty<string>();
    for (const [a, b] of pairs) m = m.set(a!, a!).set(b!, b!);
    expect(m.size).toBe(6);
    for (const [a, b] of pairs) { expect(m.get(a!)).toBe(a); expect(m.get(b!)).toBe(b); }
    m = m.set('id522789', 'again').delete('id739192');
    expect(m.size).toBe(5);
    expect(m.get('id522789')).toBe('again');
    expect(m.get('id739192')).toBeUndefined();
    expect(m.delete('id739192')).toBe(m);
  });

  it('holds many keys', () => {
    let m = PersistentMap.empty<number>();
    const keys = Array.from({ length: 5000 }, (_, i) => `k${i}`);
    keys.forEach((k, i) => { m = m.set(k, i); });
    expect(m.size).toBe(5000);
    keys.forEach((k, i) => expect(m.get(k)).toBe(i));
    for (const k of keys.slice(0, 2500)) m = m.delete(k);
    expect(m.size).toBe(2500);
    expect(m.get('k0')).toBeUndefined();
    expect(m.get('k4999')).toBe(4999);
    expect(m.delete('absent')).toBe(m);
  });

  it('an owned state (changed in place) reduces any event stream to the same parts and diagnostics as a persistent one (2k streams)', () => {
    fc.assert(fc.property(eventStream(), (events) => {
      const persistent = reduceAll(events, emptySessionState());
      const owned = reduceAll(events, emptySessionState(true));
      expect(owned.parts).toBeInstanceOf(OwnedMap);
      expect(projectParts(owned)).toEqual(projectParts(persistent));
      expect(listToArray(owned.diagnostics)).toEqual(listToArray(persistent.diagnostics));
      expect(owned.parts.size).toBe(persistent.parts.size);
    }), { numRuns: 2000 });
  });

  it('OwnedMap changes in place and returns itself', () => {
    const m = new OwnedMap<number>();
    expect(m.set('a', 1)).toBe(m);
    expect(m.get('a')).toBe(1);
    expect(m.delete('a')).toBe(m);
    expect(m.size).toBe(0);
    expect(m.delete('missing')).toBe(m);
  });

  it('OwnedMap matches a Map model, iteration order included, under any sets and deletes (5k sequences)', () => {
    fc.assert(fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
      const m = new OwnedMap<number>();
      const model = new Map<string, number>();
      let most = 0;
      for (const [kind, k, v] of ops) {
        if (kind === 'set') { m.set(k, v); model.set(k, v); } else { m.delete(k); model.delete(k); }
        most = Math.max(most, model.size);
        expect(m.size).toBe(model.size);
        expect(m.get(k)).toBe(model.get(k));
        expect(m.has(k)).toBe(model.has(k));
      }
      expect([...m.entries()]).toEqual([...model.entries()]);
      expect([...m.values()]).toEqual([...model.values()]);
      // Freed slots are reused: memory follows the most values held at once, not the keys ever set.
      expect(m.capacity).toBe(most);
    }), { numRuns: 5000 });
  });

  it('OwnedMap reuses slots under churn: 100k parts through a window of 64 take 64 slots', () => {
    const m = new OwnedMap<object>();
    for (let i = 0; i < 100_000; i++) {
      m.set(`toolu_${i}`, { i });
      if (i >= 64) m.delete(`toolu_${i - 64}`);
    }
    expect(m.size).toBe(64);
    expect(m.capacity).toBe(65);
    expect(m.get('toolu_99999')).toEqual({ i: 99_999 });
    expect(m.get('toolu_0')).toBeUndefined();
  });
});
