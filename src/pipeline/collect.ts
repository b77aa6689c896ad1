// In-memory normalization of a small input: for tests, fixtures and library users who already
// hold the text. The streaming CLI path is src/pipeline/normalize.ts.
import { issuesOfToolEvent, type Diagnostic, type NormalizedToolPart, type ToolEvent } from '../contract/index.js';
import type { Adapter, AdapterDefinition, AdapterOptions } from '../adapters/types.js';
import { feedValue } from '../adapters/feed.js';
import { diagnosticsOf, projectParts, type ProjectOptions } from '../events/projector.js';
import { createReducer, type ReducerOptions } from '../events/reducer.js';
import { emptySessionState, type ToolSessionState } from '../events/state.js';

export interface InputFile {
  /** Name recorded in event sources and diagnostics (as given; never an absolute machine path). */
  name: string;
  text: string;
}

export interface Collected {
  events: ToolEvent[];
  /** Adapter diagnostics, then event-validation and reducer diagnostics. */
  diagnostics: Diagnostic[];
  /** Parts per session, in first-seen order. */
  sessions: Map<string, NormalizedToolPart[]>;
  /** All parts of all sessions, sessions in first-seen order. */
  parts: NormalizedToolPart[];
  states: Map<string, ToolSessionState>;
  inputLines: number;
}

export function splitLines(text: string): { text: string; offset: number }[] {
  const out: { text: string; offset: number }[] = [];
  let offset = 0;
  for (const raw of text.split('\n')) {
    out.push({ text: raw.endsWith('\r') ? raw.slice(0, -1) : raw, offset });
    offset += Buffer.byteLength(raw, 'utf8') + 1;
  }
  if (out.length && out.at(-1)!.text === '') out.pop();
  return out;
}

type CollectOptions = AdapterOptions & ReducerOptions & ProjectOptions;

export function collect(adapter: AdapterDefinition, input: string | InputFile[], options: CollectOptions = {}): Collected {
  const files = typeof input === 'string' ? [{ name: '-', text: input }] : input;
  return collectWith(adapter, options, (instance) => {
    let inputLines = 0;
    for (const file of files) {
      const name = typeof input === 'string' ? undefined : file.name;
      instance.beginFile?.(file.name);
      for (const [i, l] of splitLines(file.text).entries()) {
        inputLines++;
        instance.line(l.text, { line: i + 1, offset: l.offset, ...(name !== undefined ? { file: name } : {}) });
      }
      instance.endFile?.(file.name);
    }
    return inputLines;
  });
}

/**
 * `collect` for already-parsed values, such as provider SDK objects held in memory: each item is
 * read as its JSON line would be (a string item is a line). Gives the same parts as the lines.
 */
export function collectValues(adapter: AdapterDefinition, items: Iterable<unknown>, options: CollectOptions = {}): Collected {
  return collectWith(adapter, options, (instance) => {
    let inputLines = 0;
    for (const item of items) feedValue(instance, item, { line: ++inputLines, offset: 0 });
    return inputLines;
  });
}

/** One adapter instance fed by `feed` (which returns the inputs it read), then reduced. */
function collectWith(adapter: AdapterDefinition, options: CollectOptions, feed: (instance: Adapter) => number): Collected {
  const events: ToolEvent[] = [];
  const diagnostics: Diagnostic[] = [];
  const instance = adapter.create({ event: (e) => events.push(e), diagnostic: (d) => diagnostics.push(d) }, options);
  const inputLines = feed(instance);
  instance.end();
  return reduceCollected(adapter.id, events, diagnostics, inputLines, options);
}

function reduceCollected(adapterId: string, events: ToolEvent[], diagnostics: Diagnostic[], inputLines: number, options: ReducerOptions & ProjectOptions): Collected {
  const reducer = createReducer(options);
  const states = new Map<string, ToolSessionState>();
  const valid: ToolEvent[] = [];
  for (const e of events) {
    const issues = issuesOfToolEvent(e);
    if (issues.length) {
      diagnostics.push({
        severity: 'error',
        code: 'invalid_event',
        message: `the ${adapterId} adapter produced an invalid event: ${issues.map((i) => `${i.instancePath || '(root)'} ${i.message}`).join('; ')}`,
        source: (e as { source?: Diagnostic['source'] }).source,
        excerpt: JSON.stringify(e).slice(0, 200),
      });
      continue;
    }
    valid.push(e);
    states.set(e.sessionId, reducer(states.get(e.sessionId) ?? emptySessionState(), e));
  }
  const sessions = new Map<string, NormalizedToolPart[]>();
  for (const [id, state] of states) {
    sessions.set(id, projectParts(state, options));
    diagnostics.push(...diagnosticsOf(state));
  }
  return { events: valid, diagnostics, sessions, parts: [...sessions.values()].flat(), states, inputLines };
}
