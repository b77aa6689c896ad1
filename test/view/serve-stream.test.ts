// The live server's stream bound, through the library (serveView over a ViewBuilder and a
// followed SQLite session, as `view --serve --follow` runs it), with a small `behindBytes` so it
// is crossed quickly. A client stops reading while 16 MiB is appended in separate messages: what
// the server keeps for it stays within the bound (its own queued-bytes counter, `stats`), and once
// it reads again it gets the whole view in one message instead of the ones it missed, so it still
// has every part in its final state. A control client that keeps reading gets every message.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteEventStore } from '../../src/store/sqlite.js';
import { ViewBuilder, addStoredSession, serveView, type StreamStats } from '../../src/view/index.js';
import { bulkEvents, bulkOutput, readStream } from './serve-harness.js';

const SESSION = 'stream-session';
const BEHIND = 2 * 1024 * 1024;
const PARTS = 16;
const BYTES = 1 << 20;

interface View { parts: Map<string, { state: string; textOk: boolean }>; messages: Array<{ seq: number; full: boolean; parts: number }> }

function follower(port: number) {
  const view: View = { parts: new Map(), messages: [] };
  let wake = () => {};
  const client = readStream(port, (m) => {
    if (m.event !== 'view') return;
    const msg = JSON.parse(m.data) as { seq: number; full: boolean; parts: Array<{ ui: { toolCallId: string; state: string; output?: { text?: string } } }> };
    view.messages.push({ seq: msg.seq, full: msg.full, parts: msg.parts.length });
    for (const p of msg.parts) {
      const text = p.ui.output?.text ?? '';
      view.parts.set(p.ui.toolCallId, { state: p.ui.state, textOk: text === bulkOutput(Number(p.ui.toolCallId.slice(5)), text.length) });
    }
    wake();
  });
  const until = async (ok: () => boolean) => { while (!ok()) await new Promise<void>((r) => { wake = r; }); };
  return { view, client, until };
}

describe('view --serve --follow: a client past behindBytes', () => {
  let store: SqliteEventStore;
  const stop = new AbortController();
  let served: Promise<void>;
  let port = 0;
  const stats: StreamStats[] = [];
  let broadcast = () => {};

  beforeAll(async () => {
    store = new SqliteEventStore(join(mkdtempSync(join(tmpdir(), 'toolnorm-view-stream-')), 'events.db'));
    await store.append(SESSION, bulkEvents(SESSION, 0, 100), 0);
    const builder = new ViewBuilder();
    const head = await addStoredSession(builder, store, SESSION);
    await new Promise<void>((listening) => {
      served = serveView({
        builder, source: 'test session', signal: stop.signal,
        follow: { store, sessionId: SESSION, afterSeq: head },
        limits: { behindBytes: BEHIND, stallMs: 600_000 },
        listening: (u) => { port = Number(new URL(u).port); listening(); },
        stats: (s) => { stats.push(s); broadcast(); },
      });
    });
  });
  afterAll(async () => {
    stop.abort();
    await served;
    await store?.close();
  });

  it('keeps at most the bound for it, then sends it the whole view; it has every part', async () => {
    const slow = follower(port);
    const fast = follower(port);
    await slow.until(() => slow.view.messages.length === 1);
    await fast.until(() => fast.view.messages.length === 1);
    slow.client.pause();
    // One message per part: each append waits for its broadcast.
    let head = 2;
    for (let i = 1; i <= PARTS; i++) {
      const sent = stats.length;
      head = (await store.append(SESSION, bulkEvents(SESSION, i, BYTES), head)).lastSeq;
      while (stats.length === sent) await new Promise<void>((r) => { broadcast = r; });
    }
    await fast.until(() => fast.view.messages.at(-1)!.seq === head);
    const last = stats.at(-1)!;
    expect(last.clients).toBe(2);
    expect(last.resyncs).toBeGreaterThanOrEqual(1);
    // The counter never held more than the bound plus the message being written, for both clients.
    const frame = BYTES + 4096;
    for (const s of stats) expect(s.pendingBytes).toBeLessThanOrEqual(2 * (BEHIND + frame));

    slow.client.resume();
    await slow.until(() => slow.view.parts.size === PARTS + 1 && [...slow.view.parts.values()].every((p) => p.state === 'complete' && p.textOk));
    // It skipped messages: after its first, a whole view (full, every part) arrived.
    const full = slow.view.messages.slice(1).filter((m) => m.full);
    expect(full.length).toBeGreaterThanOrEqual(1);
    expect(full.at(-1)!.parts).toBe(PARTS + 1);
    expect(slow.view.messages.length).toBeLessThan(PARTS + 1);
    // The control got each message in order, none of them a whole view.
    expect(fast.view.messages.map((m) => m.full)).toEqual([true, ...Array(PARTS).fill(false)]);
    for (let i = 0; i <= PARTS; i++) expect(fast.view.parts.get(`bulk-${i}`)).toEqual({ state: 'complete', textOk: true });
    slow.client.close();
    fast.client.close();
  });
});
