// The adapter's correlation state forgets only old entries, so memory stays bounded.
import { describe, expect, it } from 'vitest';
import { BoundedMap, BoundedSet } from '../../src/collections/bounded.js';

describe('BoundedMap / BoundedSet', () => {
  it('keeps at least the last `limit` entries and forgets older ones', () => {
    const m = new BoundedMap<string, number>(100);
    for (let i = 0; i < 1000; i++) m.set(`k${i}`, i);
    for (let i = 900; i < 1000; i++) expect(m.get(`k${i}`)).toBe(i);
    expect(m.get('k0')).toBeUndefined();
    expect(m.has('k500')).toBe(false);
    expect([...m.entries()].length).toBeLessThanOrEqual(200);
  });

  it('a key set again shadows its older value, also in entries()', () => {
    const m = new BoundedMap<string, number>(3);
    m.set('a', 1);
    m.set('b', 2);
    m.set('c', 3); // young becomes old
    m.set('a', 10);
    expect(m.get('a')).toBe(10);
    expect([...m.entries()]).toEqual([['b', 2], ['c', 3], ['a', 10]]);
    expect(m.delete('a')).toBe(true);
    expect(m.get('a')).toBeUndefined();
  });

  it('BoundedSet.add says whether the value was new', () => {
    const s = new BoundedSet<string>(10);
    expect(s.add('x')).toBe(true);
    expect(s.add('x')).toBe(false);
    expect(s.has('x')).toBe(true);
  });

  it('BoundedSet remembers a value across one generation change, and forgets it after two', () => {
    const s = new BoundedSet<string>(3);
    s.add('x');
    s.add('a');
    s.add('b'); // the generation with x becomes the old one
    expect(s.has('x')).toBe(true);
    expect(s.add('x')).toBe(false); // found in the old generation, and young again now
    for (const v of ['c', 'd', 'e', 'f', 'g', 'h']) expect(s.add(v)).toBe(true);
    expect(s.has('a')).toBe(false);
    expect(s.add('a')).toBe(true);
  });
});
