// Compressing what is already stored: replays a session and appends one derived
// `tool.output.compressed` event per completed part that needs one. Nothing else is written.
import type { ToolOutputCompressedEvent } from '../contract/index.js';
import type { EventStore } from '../store/types.js';
import { ToolRepository } from '../events/repository.js';
import { partRecords, projectPart } from '../events/projector.js';
import type { ToolOutputCompressor } from './types.js';

export interface CompressSessionOptions {
  /** Time for the derived events (default: the part's completion time, so replays are deterministic). */
  clock?: () => number;
}

export async function compressSession(store: EventStore, sessionId: string, compressor: ToolOutputCompressor, options: CompressSessionOptions = {}): Promise<ToolOutputCompressedEvent[]> {
  const state = await new ToolRepository(store).state(sessionId);
  const events: ToolOutputCompressedEvent[] = [];
  for (const record of partRecords(state)) {
    if (record.state !== 'complete' || record.compressed) continue;
    const event = compressor.compressPart(projectPart(record, { output: 'full' }), {
      sessionId,
      provider: record.provider,
      seq: record.terminalSeq,
      at: options.clock?.() ?? record.completedAt ?? record.lastAt,
    });
    if (event) events.push(event);
  }
  // Optimistic concurrency: if anyone appended since the replay, this fails instead of racing.
  if (events.length) await store.append(sessionId, events, state.lastSeq);
  return events;
}
