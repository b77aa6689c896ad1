// A worker thread of `normalize --jobs N` (bulk.ts): runs the units it is handed, one at a time,
// and sends back each one's output, exit code and summary.
import { parentPort } from 'node:worker_threads';
import { runUnit, type UnitRequest } from './bulk.js';

const port = parentPort!;
const stop = new AbortController();
const turns = new Map<number, { resolve(): void; reject(e: Error): void }>();

port.on('message', (m: { type: 'unit'; req: UnitRequest; turn: boolean } | { type: 'turn'; index: number } | { type: 'stop'; failed: boolean }) => {
  if (m.type === 'turn') {
    turns.get(m.index)?.resolve();
    return;
  }
  if (m.type === 'stop') {
    stop.abort();
    if (m.failed) for (const t of turns.values()) t.reject(new Error('not appended to the store: an earlier input of this run failed'));
    return;
  }
  const { req } = m;
  const turn = new Promise<void>((resolve, reject) => { turns.set(req.index, { resolve, reject }); });
  turn.catch(() => {});
  if (m.turn) turns.get(req.index)!.resolve();
  runUnit(req, turn, stop.signal, process.env).then(
    (result) => {
      turns.delete(req.index);
      port.postMessage({ type: 'done', result }, [result.stdout.buffer as ArrayBuffer, result.stderr.buffer as ArrayBuffer]);
    },
    (e: Error) => {
      turns.delete(req.index);
      port.postMessage({ type: 'failed', index: req.index, message: e.message });
    },
  );
});
