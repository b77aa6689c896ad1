// `toolnorm sessions`: what an event store holds, one session per line, oldest first.
import { describeStoreUrl, openStore } from '../../store/open.js';
import type { EventStore, SessionInfo } from '../../store/types.js';
import { LineWriter } from '../writer.js';
import { UsageError, type Command } from './types.js';
import { parseCommandArgs } from './args.js';

const USAGE = `Usage: toolnorm sessions [--store URL] [--format json|table]

Lists the sessions stored in an event store, in the order they were created: NDJSON lines
{sessionId, events, firstAt, lastAt} (times are the first and last event's epoch ms), or an
aligned table for people.

Options:
  --store URL         sqlite:PATH or postgres://… (default sqlite:.toolnorm/events.db)
  --format F          json (default) | table
Exit: 0, 1 when the store cannot be read, 2 on bad usage.`;

const iso = (ms: number | undefined) => (ms === undefined ? '-' : new Date(ms).toISOString());

function table(sessions: SessionInfo[]): string {
  const rows = [['SESSION', 'EVENTS', 'FIRST', 'LAST'], ...sessions.map((s) => [s.sessionId, String(s.lastSeq), iso(s.firstAt), iso(s.lastAt)])];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => (c === 1 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ').trimEnd()).join('\n') + '\n';
}

export const sessionsCommand: Command = {
  name: 'sessions',
  summary: 'list the sessions stored in an event store',
  usage: USAGE,
  async run(io) {
    const parsed = parseCommandArgs({ args: io.argv, allowPositionals: false, options: { store: { type: 'string' }, format: { type: 'string', default: 'json' } } });
    const { store: url, format } = parsed.values;
    if (format !== 'json' && format !== 'table') throw new UsageError(`--format must be json or table, got "${format}"`);
    const label = describeStoreUrl(url);
    let store: EventStore;
    try {
      store = await openStore(url, { cwd: io.cwd, create: false });
    } catch (e) {
      io.stderr.write(`toolnorm sessions: cannot open store ${label}: ${(e as Error).message}\n`);
      return 1;
    }
    try {
      const sessions = await store.sessions();
      if (format === 'table') {
        io.stdout.write(table(sessions));
        return 0;
      }
      const out = new LineWriter(io.stdout);
      for (const s of sessions) out.json({ sessionId: s.sessionId, events: s.lastSeq, firstAt: s.firstAt, lastAt: s.lastAt });
      await out.flush(true);
      return 0;
    } catch (e) {
      io.stderr.write(`toolnorm sessions: ${(e as Error).message}\n`);
      return 1;
    } finally {
      await store.close();
    }
  },
};
