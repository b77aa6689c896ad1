// The one output path: every format (parts, events, ACP, UI, AI SDK, AG-UI, OTel, the viewer) is a
// stream encoder over the pipeline's events and parts. The pipeline knows only this shape; the
// encoders import it, never the reverse (test/pipeline/import-boundary.test.ts pins that), so the
// ecosystem encoders live in their own modules and load only when chosen.
import { issuesOfNormalizedToolPart, issuesOfToolEvent, type ContractIssue, type Diagnostic, type NormalizedToolPart, type ToolEvent } from '../contract/index.js';
import type { PartRecord } from '../events/state.js';

export interface StreamEncoderSinks {
  /** One output record, printed as a JSON line. */
  output(record: unknown): void;
  diagnostic(d: Diagnostic): void;
}

export interface StreamEncoder {
  /** Every valid event the pipeline applied (derived ones included), in order. */
  event?(event: ToolEvent): void;
  /**
   * An event changed a part. `part()` projects it; it costs, so an encoder calls it only when
   * the event means something to it. `record` is the reduced state behind it (streamed output
   * tail, times), for encoders that send progress snapshots.
   */
  change?(sessionId: string, event: ToolEvent, part: () => NormalizedToolPart, record: PartRecord): void;
  /**
   * The part is final (or still open at the end of input) and leaves memory: called once per part.
   * `unchanged`: it was given to `preview` just as it is now, so an encoder that prints final parts
   * prints nothing more for it. A part `change` never showed (a replay of final parts) is to be
   * encoded whole here.
   */
  final(sessionId: string, part: NormalizedToolPart, unchanged?: boolean): void;
  /**
   * A live input waits for its next line: this final part is still held for the grace window
   * (late enrichment may change it), and is to be shown now. Called again if it changes, and
   * `final` follows. Only encoders that would otherwise hold back a final part until `final` need it.
   */
  preview?(sessionId: string, part: NormalizedToolPart): void;
  /** End of input: close what is open. */
  end?(): void;
}

export type StreamEncoderFactory = (sinks: StreamEncoderSinks) => StreamEncoder;

/**
 * `--to parts`: each part once, final, checked against the contract at the edge. The events of
 * toolnorm's own adapters are not checked on the way in (AdapterDefinition.eventsChecked), so this
 * check is what keeps a part broken by an adapter bug from reaching a client.
 */
export const partsEncoder: StreamEncoderFactory = (outer) => {
  const sinks = checkedSinks(outer, issuesOfNormalizedToolPart, (r) => ({ label: `part ${(r as NormalizedToolPart).id}`, partId: (r as NormalizedToolPart).id }));
  return {
    final: (_s, part, unchanged) => { if (!unchanged) sinks.output(part); },
    preview: (_s, part) => sinks.output(part),
  };
};

/** `--to events`: every event as applied, checked at the edge like the parts. */
export const eventsEncoder: StreamEncoderFactory = (outer) => {
  const sinks = checkedSinks(outer, issuesOfToolEvent, (r) => ({ label: `a ${(r as ToolEvent).type} event for ${(r as ToolEvent).partId}`, partId: (r as ToolEvent).partId }));
  return {
    event: (e) => sinks.output(e),
    final: () => {},
  };
};

/**
 * The contract check at the edge of a format whose records have a schema a client enforces (ACP
 * clients blank or strip invalid data): a record that breaks it is not sent, and an `invalid_frame`
 * diagnostic says which and why.
 */
export function checkedSinks(sinks: StreamEncoderSinks, check: (record: unknown) => readonly ContractIssue[], what: (record: unknown) => { label: string; partId?: string }): StreamEncoderSinks {
  return {
    diagnostic: (d) => sinks.diagnostic(d),
    output: (record) => {
      const issues = check(record);
      if (!issues.length) return sinks.output(record);
      const { label, partId } = what(record);
      sinks.diagnostic({ severity: 'error', code: 'invalid_frame', message: `${label} broke the contract and was not sent: ${issues.slice(0, 3).map((i) => `${i.instancePath || '(root)'} ${i.message}`).join('; ')}`, ...(partId !== undefined ? { partId } : {}) });
    },
  };
}

/** Runs finished parts through an encoder, as `replay` does: no event history, only final parts. */
export function encodeFinalParts(factory: StreamEncoderFactory, sessions: Iterable<[string, readonly NormalizedToolPart[]]>, sinks: StreamEncoderSinks): void {
  const encoder = factory(sinks);
  for (const [sessionId, parts] of sessions) for (const p of parts) encoder.final(sessionId, p);
  encoder.end?.();
}
