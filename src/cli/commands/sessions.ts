// `toolnorm sessions`: what an event store holds, one session per line, oldest first.
import { describeStoreUrl, openStore } from '../../store/open.js';
import type { EventStore, SessionInfo } from '../../store/types.js';
import { LineWriter } from '../writer.js';
import { UsageError, type Command } from './types.js';
import { parseCommandArgs } from './args.js';
import { outputFailure } from '../output-errors.js';
import { storeError } from '../../store/errors.js';

const USAGE = `Usage: toolnorm sessions [--store URL] [--format json|table]

Lists the sessions stored in an event store, in the order they were created: NDJSON lines
{sessionId, events, firstAt, lastAt} (times are the first and last event's epoch ms, null when
the session's events carry no time), or an aligned table for people ("-" for no time). The store
is opened read-only: a read-only file or directory is fine.

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
      store = await openStore(url, { cwd: io.cwd, create: false, readOnly: true });
    } catch (e) {
      io.stderr.write(`toolnorm sessions: cannot open ${storeError(label, e).message}\n`);
      return 1;
    }
    const out = new LineWriter(io.stdout);
    try {
      let sessions: SessionInfo[];
      try {
        sessions = await store.sessions();
      } catch (e) {
        io.stderr.write(`toolnorm sessions: ${storeError(label, e).message}\n`);
        return 1;
      }
      if (format === 'table') out.text(table(sessions).trimEnd());
      // A session whose events carry no time has none: firstAt and lastAt are null, never 0.
      else for (const s of sessions) out.json({ sessionId: s.sessionId, events: s.lastSeq, firstAt: s.firstAt ?? null, lastAt: s.lastAt ?? null });
      await out.close();
      return 0;
    } catch (e) {
      const failed = outputFailure(e, 'sessions', io.stderr);
      if (failed !== undefined) return failed;
      throw e;
    } finally {
      await store.close();
    }
  },
};
