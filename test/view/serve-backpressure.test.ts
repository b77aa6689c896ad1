// Stalled clients against the real `toolnorm view --serve --follow`: ten clients ask for the
// event stream and then never read, while 64 MiB of tool output is appended to the store and one
// client reads everything. Each message is serialized once and shared, and a client is written
// to only as fast as its socket takes data, so the stalled ones cost the server (almost) nothing:
// its peak memory is compared with the same run without them (measured in the server process,
// /proc/PID/status VmHWM). They are then dropped, each told so by the last message of its
// stream, while the reading client keeps every part and goes on receiving.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STREAM_LIMITS, type DroppedMessage } from '../../src/view/index.js';
import { bulkOutput, httpResponse, readStream, rss, sseMessages, startServer, startWriter, stalledClient } from './serve-harness.js';

const SESSION = 'bp-session';
const PARTS = 64;
const BYTES = 1 << 20;
const APPENDED = PARTS * BYTES;
const STALLED = 10;
const MB = (n: number) => `${(n / 1e6).toFixed(0)} MB`;

interface Seen { state: string; textOk: boolean }

/** A server following a fresh session, `stalled` clients that stopped reading and one that reads. */
async function scenario(stalled: number) {
  const db = join(mkdtempSync(join(tmpdir(), 'toolnorm-view-bp-')), 'events.db');
  const writer = await startWriter(db, SESSION);
  await writer.bulk(0, 1, 100);
  const server = await startServer(db, SESSION);
  const clients = await Promise.all(Array.from({ length: stalled }, () => stalledClient(server.port)));
  const seen = new Map<string, Seen>();
  let seq = 0;
  let wake = () => {};
  const reader = readStream(server.port, (m) => {
    if (m.event !== 'view') return;
    const msg = JSON.parse(m.data) as { seq: number; parts: Array<{ ui: { toolCallId: string; state: string; output?: { text?: string } } }> };
    seq = msg.seq;
    for (const p of msg.parts) {
      const text = p.ui.output?.text ?? '';
      seen.set(p.ui.toolCallId, { state: p.ui.state, textOk: text === bulkOutput(Number(p.ui.toolCallId.slice(5)), text.length) });
    }
    wake();
  });
  const reached = async (head: number) => { while (seq < head) await new Promise<void>((r) => { wake = r; }); };
  await reached(2);
  const base = rss(server.proc.pid!, 'VmHWM');
  const head = await writer.bulk(1, PARTS, BYTES);
  await reached(head);
  const growth = rss(server.proc.pid!, 'VmHWM') - base;
  return { writer, server, clients, reader, seen, reached, growth, head };
}

describe('toolnorm view --serve --follow with clients that stop reading', () => {
  it('keeps memory bounded, drops the stalled clients with a last message, and the reading client gets every part', async () => {
    const control = await scenario(0);
    control.reader.close();
    expect(await control.server.stop()).toBe(130);
    await control.writer.close();

    const run = await scenario(STALLED);
    console.log(`[serve-backpressure] ${MB(APPENDED)} appended: server peak RSS grew ${MB(run.growth)} with ${STALLED} stalled clients, ${MB(control.growth)} without`);
    // Per-client copies would cost STALLED × APPENDED; shared messages cost about nothing.
    expect(run.growth).toBeLessThan(control.growth + 3 * APPENDED);

    for (let i = 0; i <= PARTS; i++) expect(run.seen.get(`bulk-${i}`), `bulk-${i}`).toEqual({ state: 'complete', textOk: true });

    // Stalled for stallMs: each is dropped, with a notice for the operator.
    for (let i = 0; i < STALLED; i++) await run.server.stderr.next(/^toolnorm view: dropped a live page that took nothing for 30000 ms, \d+ bytes behind; it was told to reload$/);
    const streams = await Promise.all(run.clients.map((c) => c.take()));
    for (const raw of streams) {
      const { head, body } = httpResponse(raw);
      expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      const { messages, cut } = sseMessages(body.replace(/^retry: 1000\n\n/, ''));
      expect(cut).toBe('');
      const last = messages.pop()!;
      expect(last.event).toBe('dropped');
      const dropped = JSON.parse(last.data) as DroppedMessage;
      expect(dropped).toEqual({ reason: 'stalled', behindBytes: expect.any(Number), limits: { ...DEFAULT_STREAM_LIMITS } });
      expect(dropped.behindBytes).toBeGreaterThan(0);
      // What it did get before is whole messages, in order.
      expect(messages.length).toBeGreaterThan(0);
      let prev = 0;
      for (const m of messages) {
        expect(m.event).toBe('view');
        const seq = (JSON.parse(m.data) as { seq: number }).seq;
        expect(seq).toBeGreaterThanOrEqual(prev);
        prev = seq;
      }
    }

    // The reading client was never dropped and still follows the session.
    const head = await run.writer.bulk(PARTS + 1, 1, 100);
    await run.reached(head);
    expect(run.seen.get(`bulk-${PARTS + 1}`)).toEqual({ state: 'complete', textOk: true });
    run.reader.close();
    expect(await run.server.stop()).toBe(130);
    expect(run.server.stderr.all.filter((l) => l.includes('dropped a live page'))).toHaveLength(STALLED);
    await run.writer.close();
  }, 600_000);
});
