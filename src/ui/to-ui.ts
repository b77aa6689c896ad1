// NormalizedToolPart → the existing UI ToolPart (the spec's compatibility path): legacy state
// names by default, the seed's four names with `{ states: 'canonical' }`.
import type { NormalizedToolPart, ToolState, UiToolPart } from '../contract/index.js';

export type UiStateNames = 'legacy' | 'canonical';

export const LEGACY_STATES: Record<ToolState, UiToolPart['state']> = {
  started: 'calling',
  running: 'calling',
  complete: 'output-available',
  error: 'output-error',
};

/** @contract UiToolPart */
export function toUiPart(part: NormalizedToolPart, options: { states?: UiStateNames } = {}): UiToolPart {
  const ui: UiToolPart = {
    toolCallId: part.id,
    toolName: part.name,
    state: options.states === 'canonical' ? part.state : LEGACY_STATES[part.state],
    input: part.input,
    title: part.title,
    kind: part.kind,
  };
  if (part.state === 'complete' && 'output' in part) ui.output = part.output;
  if (part.state === 'error') ui.errorText = part.error.message;
  if (part.timing) ui.timing = part.timing;
  if (part.metadata) ui.metadata = part.metadata;
  return ui;
}
