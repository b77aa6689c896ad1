// A separate process that appends to a store, for the crash, race and concurrency tests:
//   crash  URL SESSION        append batches forever; "begin HEAD N" before and "ack LAST" after each
//   huge   URL SESSION        one append of 40 events of 2 MiB each (a transaction long enough to be killed inside)
//   writer URL SESSION TAG COUNT BATCH   wait for "go" on stdin, then runWriter; prints its result as JSON
//   race   URL SESSION TAG    per stdin line "append EXPECTED N K0": one attempt, answered
//                             "ok FIRST LAST" | "conflict EXPECTED ACTUAL" | "error NAME MESSAGE"
// Lines go out with writeSync, so an "ack" is in the pipe before the next append starts: whatever
// the parent reads after a SIGKILL was really acknowledged.
import { writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { openStore } from '../../src/store/open.js';
import { ConcurrencyError } from '../../src/store/types.js';
import { batchSizeAt, bigText, CRASH_STREAM, eventsRange } from './stream.js';
import { runWriter } from './writers.js';

const say = (line: string) => writeSync(1, `${line}\n`);
const [mode, url, sessionId, ...rest] = process.argv.slice(2);
if (!mode || !url || !sessionId) throw new Error('usage: child.ts crash|writer|race URL SESSION …');
const store = await openStore(url);

if (mode === 'crash') {
  let head = await store.head(sessionId);
  say(`ready ${head}`);
  for (;;) {
    const n = batchSizeAt(head);
    say(`begin ${head} ${n}`);
    const r = await store.append(sessionId, eventsRange(sessionId, head, head + n, CRASH_STREAM), head);
    say(`ack ${r.lastSeq}`);
    head = r.lastSeq;
  }
} else if (mode === 'huge') {
  const head = await store.head(sessionId);
  const env = { sessionId, source: { provider: 'executor' as const } };
  const events = Array.from({ length: 40 }, (_, k) => [
    { ...env, partId: `huge-${head}-${k}`, at: k, type: 'tool.started' as const, name: 'bash', kind: 'bash' as const, title: 'Huge output' },
    { ...env, partId: `huge-${head}-${k}`, at: k, type: 'tool.completed' as const, output: bigText(2 * 1024 * 1024, k) },
  ]).flat();
  say(`begin ${head} ${events.length}`);
  const r = await store.append(sessionId, events, head);
  say(`ack ${r.lastSeq}`);
  await store.close();
  process.exit(0);
} else if (mode === 'writer') {
  const [tag, count, batch] = rest;
  const lines = createInterface({ input: process.stdin });
  say('ready');
  for await (const line of lines) if (line === 'go') break;
  const result = await runWriter(store, sessionId, tag!, Number(count), Number(batch));
  say(JSON.stringify(result));
  await store.close();
  process.exit(0);
} else if (mode === 'race') {
  const tag = rest[0]!;
  say('ready');
  for await (const line of createInterface({ input: process.stdin })) {
    const [cmd, expected, n, k0] = line.split(' ');
    if (cmd === 'exit') break;
    const events = eventsRange(sessionId, Number(k0), Number(k0) + Number(n), { tag });
    try {
      const r = await store.append(sessionId, events, Number(expected));
      say(`ok ${r.firstSeq} ${r.lastSeq}`);
    } catch (err) {
      if (err instanceof ConcurrencyError) say(`conflict ${err.expectedSeq} ${err.actualSeq}`);
      else say(`error ${(err as Error).name} ${(err as Error).message.replace(/\n/g, ' ')}`);
    }
  }
  await store.close();
  process.exit(0);
} else {
  throw new Error(`unknown mode ${mode}`);
}
