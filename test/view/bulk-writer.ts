// A writer process for the viewer server suites: appends to a SQLite store session and answers
// `appended <head>` once each command is committed. A stdin line is either a JSON array of events,
// or `bulk FIRST COUNT BYTES`: parts bulk-FIRST … bulk-(FIRST+COUNT-1), each a started and a
// completed event in one append whose output text is BYTES long (see bulkOutput), so a test can
// append a large session without sending it through the pipe.
import { createInterface } from 'node:readline';
import { SqliteEventStore } from '../../src/store/sqlite.js';
import type { ToolEvent } from '../../src/contract/index.js';
import { bulkEvents } from './serve-harness.js';

const [path, session] = process.argv.slice(2) as [string, string];
const store = new SqliteEventStore(path);
let head = await store.head(session);
process.stdout.write(`ready ${head}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  const bulk = line.match(/^bulk (\d+) (\d+) (\d+)$/);
  if (bulk) {
    const [first, count, bytes] = bulk.slice(1).map(Number) as [number, number, number];
    for (let i = first; i < first + count; i++) head = (await store.append(session, bulkEvents(session, i, bytes), head)).lastSeq;
  } else if (line.trim()) {
    head = (await store.append(session, JSON.parse(line) as ToolEvent[], head)).lastSeq;
  } else continue;
  process.stdout.write(`appended ${head}\n`);
}
await store.close();
