// A separate writer process for the live viewer suite: appends the events of each stdin line (a
// JSON array) to a SQLite store session, and answers `appended <head>` when they are committed.
import { createInterface } from 'node:readline';
import { SqliteEventStore } from '../../src/store/sqlite.js';
import type { ToolEvent } from '../../src/contract/index.js';

const [path, session] = process.argv.slice(2) as [string, string];
const store = new SqliteEventStore(path);
let head = await store.head(session);
process.stdout.write(`ready ${head}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const r = await store.append(session, JSON.parse(line) as ToolEvent[], head);
  head = r.lastSeq;
  process.stdout.write(`appended ${head}\n`);
}
await store.close();
