// A separate writer process for the live viewer suites: appends the events of each stdin line to
// a SQLite store session, and answers `appended <head>` when they are committed. A line is a JSON
// array (for the session named on the command line) or `{"session": ID, "events": [...]}` (for
// another one, e.g. a subagent's child session).
import { createInterface } from 'node:readline';
import { SqliteEventStore } from '../../src/store/sqlite.js';
import type { ToolEvent } from '../../src/contract/index.js';

const [path, session] = process.argv.slice(2) as [string, string];
const store = new SqliteEventStore(path);
const heads = new Map<string, number>([[session, await store.head(session)]]);
process.stdout.write(`ready ${heads.get(session)}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const msg = JSON.parse(line) as ToolEvent[] | { session: string; events: ToolEvent[] };
  const [id, events] = Array.isArray(msg) ? [session, msg] : [msg.session, msg.events];
  const head = heads.get(id) ?? (await store.head(id));
  const r = await store.append(id, events, head);
  heads.set(id, r.lastSeq);
  process.stdout.write(`appended ${r.lastSeq}\n`);
}
await store.close();
