// `--to ui` as a stream encoder of the one output path (src/pipeline/encoder.ts): each part once,
// final, as the legacy UI ToolPart (a live input also previews a final part held for the grace window).
import type { StreamEncoderFactory } from '../pipeline/encoder.js';
import { toUiPart, type UiStateNames } from './to-ui.js';

export const uiStreamEncoder = (options: { states?: UiStateNames } = {}): StreamEncoderFactory => (sinks) => ({
  final: (_s, part, unchanged) => { if (!unchanged) sinks.output(toUiPart(part, options)); },
  preview: (_s, part) => sinks.output(toUiPart(part, options)),
});
