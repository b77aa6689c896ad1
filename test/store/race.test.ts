// Four processes appending to one session with expected seqs. In lockstep rounds all four try
// the same expected seq at once: exactly one wins, the three others get ConcurrencyError carrying
// the winner's head. Free-running, they retry on conflicts. Either way the stream ends gapless,
// with every writer's events exactly once and in its own order.
import { afterAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../src/store/types.js';
import { backends } from './backends.js';
import { Child } from './procs.js';
import { eventsRange, rng } from './stream.js';
import type { WriterResult } from './writers.js';

const BACKENDS = (await backends()).filter((b) => b.durable);
const WRITERS = 4;

afterAll(async () => {
  for (const b of BACKENDS) await b.cleanup();
});

describe.each(BACKENDS)('$name: four writer processes on one session', (backend) => {
  it.skipIf(!backend.available)('lockstep: every round one winner, three ConcurrencyErrors with the winner\'s head; no gap, no duplicate', async () => {
    const url = backend.freshUrl();
    const session = 'race';
    const children = Array.from({ length: WRITERS }, (_, w) => new Child(['race', url, session, `w${w}`]));
    const random = rng(11);
    try {
      await Promise.all(children.map((c) => c.next((l) => l === 'ready')));
      const next = children.map(() => 0);
      const wins = children.map(() => 0);
      let head = 0;
      const ROUNDS = 40;
      for (let round = 0; round < ROUNDS; round++) {
        const sizes = children.map(() => 1 + Math.floor(random() * 5));
        const marks = children.map((c) => c.lines.length);
        children.forEach((c, w) => c.send(`append ${head} ${sizes[w]} ${next[w]}`));
        const answers = await Promise.all(children.map((c, w) => c.next((l) => /^(ok|conflict|error) /.test(l), marks[w])));
        const winners = answers.flatMap((a, w) => (a.startsWith('ok ') ? [w] : []));
        expect(answers.filter((a) => a.startsWith('error')), `round ${round}`).toEqual([]);
        expect(winners, `round ${round}: ${answers.join(' | ')}`).toHaveLength(1);
        const w = winners[0]!;
        expect(answers[w]).toBe(`ok ${head + 1} ${head + sizes[w]!}`);
        for (const [i, a] of answers.entries()) if (i !== w) expect(a).toBe(`conflict ${head} ${head + sizes[w]!}`);
        head += sizes[w]!;
        next[w] = next[w]! + sizes[w]!;
        wins[w]!++;
      }
      // Every writer won some rounds, or the race was not a race.
      expect(wins.filter((n) => n > 0).length).toBeGreaterThan(1);

      const store = await backend.open(url);
      try {
        const stored: StoredEvent[] = [];
        for await (const e of store.read(session)) stored.push(e);
        expect(stored.map((e) => e.seq)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
        for (let k = 0; k < WRITERS; k++) {
          const mine = stored.filter((e) => e.partId.startsWith(`w${k}-`)).map(({ seq: _s, ...e }) => e);
          expect(mine).toEqual(eventsRange(session, 0, next[k]!, { tag: `w${k}` }));
        }
      } finally {
        await store.close();
      }
      console.info(`[${backend.name} race] ${ROUNDS} rounds, wins per writer ${wins.join('/')}, ${ROUNDS * (WRITERS - 1)} ConcurrencyErrors, ${head} events`);
    } finally {
      for (const c of children) c.send('exit');
      await Promise.all(children.map((c) => c.exited));
    }
  }, 300_000);

  it.skipIf(!backend.available)('free-running: 4 × 600 events in batches of 2–8 with retries; gapless, exactly once, in order', async () => {
    const url = backend.freshUrl();
    const session = 'free';
    const COUNT = 600;
    const children = Array.from({ length: WRITERS }, (_, w) => new Child(['writer', url, session, `w${w}`, String(COUNT), String(1 + w * 2 + 1)]));
    await Promise.all(children.map((c) => c.next((l) => l === 'ready')));
    for (const c of children) c.send('go');
    const results = (await Promise.all(children.map((c) => c.next((l) => l.startsWith('{'))))).map((l) => JSON.parse(l) as WriterResult);
    await Promise.all(children.map((c) => c.exited));
    for (const r of results) {
      expect(r.otherErrors).toEqual([]);
      expect(r.appended).toBe(COUNT);
    }
    const store = await backend.open(url);
    try {
      const stored: StoredEvent[] = [];
      for await (const e of store.read(session)) stored.push(e);
      expect(stored.map((e) => e.seq)).toEqual(Array.from({ length: WRITERS * COUNT }, (_, i) => i + 1));
      for (let k = 0; k < WRITERS; k++) {
        const mine = stored.filter((e) => e.partId.startsWith(`w${k}-`)).map(({ seq: _s, ...e }) => e);
        expect(mine).toEqual(eventsRange(session, 0, COUNT, { tag: `w${k}` }));
      }
      const conflicts = results.reduce((n, r) => n + r.conflicts, 0);
      expect(conflicts).toBeGreaterThan(0);
      console.info(`[${backend.name} free-running] ${WRITERS * COUNT} events in ${results.reduce((n, r) => n + r.batches, 0)} batches, ${conflicts} ConcurrencyErrors retried`);
    } finally {
      await store.close();
    }
  }, 300_000);
});
