// Projects the aggregate into the contract shapes: NormalizedToolPart and ToolInvocationRecord.
import type { NormalizedToolPart, ToolInvocationRecord, ToolInvocationStatus, ToolTiming } from '../contract/index.js';
import { listToArray, type PartRecord, type ToolSessionState } from './state.js';

export type OutputView = 'full' | 'compressed';

export interface ProjectOptions {
  /** `compressed` shows a compressed summary where one exists; the full output stays in the store. */
  output?: OutputView;
}

/** Only the times the events carried (from the provider or an explicit clock); undefined when there are none. */
export function timingOf(p: PartRecord): ToolTiming | undefined {
  if (p.startedAt === undefined && p.completedAt === undefined && p.elapsedMs === undefined) return undefined;
  const timing: ToolTiming = {};
  if (p.startedAt !== undefined) timing.startedAt = p.startedAt;
  if (p.completedAt !== undefined) timing.completedAt = p.completedAt;
  if (p.elapsedMs !== undefined) timing.elapsedMs = p.elapsedMs;
  // An end before the start gives no duration (the reducer reported `negative_duration`), not 0.
  else if (p.completedAt !== undefined && p.startedAt !== undefined && p.completedAt >= p.startedAt) timing.elapsedMs = p.completedAt - p.startedAt;
  return timing;
}

export function projectPart(p: PartRecord, options: ProjectOptions = {}): NormalizedToolPart {
  // Literals rather than spreads of a common object: this runs once per printed part, and
  // spreading allocates the shared fields twice. Key order is the output order.
  const timing = timingOf(p);
  switch (p.state) {
    case 'complete': {
      const useCompressed = options.output === 'compressed' && p.compressed !== undefined;
      if (!p.hasOutput && !useCompressed) return { id: p.id, name: p.name, kind: p.kind, title: p.title, input: p.input, timing, metadata: p.metadata, state: 'complete' };
      const output = useCompressed ? p.compressed!.output : p.output;
      return { id: p.id, name: p.name, kind: p.kind, title: p.title, input: p.input, timing, metadata: p.metadata, state: 'complete', output };
    }
    case 'error':
      return { id: p.id, name: p.name, kind: p.kind, title: p.title, input: p.input, timing, metadata: p.metadata, state: 'error', error: p.error ?? { message: 'failed without an error message', code: 'tool_error' } };
    default:
      return { id: p.id, name: p.name, kind: p.kind, title: p.title, input: p.input, timing, metadata: p.metadata, state: p.state };
  }
}

/** Records in first-seen order. */
export function partRecords(state: ToolSessionState): PartRecord[] {
  return [...state.parts.values()].sort((a, b) => a.index - b.index);
}

export function projectParts(state: ToolSessionState, options: ProjectOptions = {}): NormalizedToolPart[] {
  return partRecords(state).map((p) => projectPart(p, options));
}

export const diagnosticsOf = (state: ToolSessionState) => listToArray(state.diagnostics);

const STATUS: Record<PartRecord['state'], ToolInvocationStatus> = { started: 'started', running: 'running', complete: 'succeeded', error: 'failed' };

/** The executor's history view of a part (core-tools spec: ToolInvocationRecord). */
export function projectInvocation(p: PartRecord): ToolInvocationRecord {
  const status: ToolInvocationStatus = p.state === 'error' && p.assessment?.decision === 'deny' ? 'denied' : STATUS[p.state];
  const timing = timingOf(p);
  const record: ToolInvocationRecord = {
    partId: p.id,
    sessionId: p.sessionId,
    tool: p.name,
    status,
    input: p.input,
    // The executor stamps every event with its clock, so its records always have a start time.
    startedAt: p.startedAt ?? 0,
    mutations: [...p.mutations],
  };
  if (p.completedAt !== undefined) record.completedAt = p.completedAt;
  if (timing?.elapsedMs !== undefined && p.completedAt !== undefined) record.elapsedMs = timing.elapsedMs;
  if (p.error) record.error = p.error;
  if (p.assessment) record.assessment = p.assessment;
  return record;
}
