import { Type } from '@sinclair/typebox';
import { NonEmpty, StringEnum, def } from './helpers.js';
import { ToolKind } from './kind.js';
import { ToolTiming } from './timing.js';
import { ToolMetadata } from './metadata.js';

export const UiToolPart = def('UiToolPart', Type.Object({
  toolCallId: NonEmpty('The part id.'),
  toolName: NonEmpty('The part name.'),
  state: StringEnum(['calling', 'output-available', 'output-error', 'started', 'running', 'complete', 'error'] as const, {
    title: 'UiToolState',
    description: 'Legacy names by default (calling, output-available, output-error); the seed\'s four names with the `canonical` option.',
  }),
  input: Type.Unknown({ description: 'The part input.' }),
  output: Type.Optional(Type.Unknown({ description: 'The part output, when complete.' })),
  errorText: Type.Optional(Type.String({ description: 'The error message, when failed.' })),
  title: NonEmpty('Human title.'),
  kind: ToolKind,
  timing: Type.Optional(ToolTiming),
  metadata: Type.Optional(ToolMetadata),
}, { additionalProperties: false, description: 'The existing UI ToolPart, fed from a NormalizedToolPart (compatibility path).' }));
