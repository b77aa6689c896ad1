import { Type, type TProperties } from '@sinclair/typebox';
import { NonEmpty, OneOf, def } from './helpers.js';
import { ToolKind } from './kind.js';
import { ToolError } from './error.js';
import { ToolTiming } from './timing.js';
import { ToolMetadata } from './metadata.js';

// The seed's output/error rules are made checkable by splitting the part per state: only the
// `complete` variant admits `output`, only the `error` variant has (and requires) `error`.
const base = {
  id: NonEmpty('Stable identifier for the whole lifecycle of the call.'),
  name: NonEmpty('Canonical tool identity, e.g. Bash, Read, webSearch, browser_navigate. Taken from the provider\'s explicit tool name, never guessed from input.'),
  kind: ToolKind,
  title: NonEmpty('Human line shown in a UI: action text such as `Reading src/index.ts`, never a bare raw name.'),
  input: Type.Unknown({ description: 'Provider arguments, normalized only enough to be inspectable (command, cwd, path, query, url, prompt, MCP arguments).' }),
  timing: Type.Optional(ToolTiming),
  metadata: Type.Optional(ToolMetadata),
};

const variant = <S extends string, E extends TProperties>(state: S, description: string, extra: E) =>
  Type.Object({ ...base, state: Type.Literal(state, { description: 'Lifecycle state.' }), ...extra }, { additionalProperties: false, description });

export const StartedToolPart = def('StartedToolPart', variant('started', 'A call that has been announced; its input may still be streaming. No output, no error.', {}));
export const RunningToolPart = def('RunningToolPart', variant('running', 'A call that is executing. No output, no error.', {}));
export const CompleteToolPart = def('CompleteToolPart', variant('complete', 'A call that succeeded. It may carry output; it never carries an error.', {
  output: Type.Optional(Type.Unknown({ description: 'Successful result data only.' })),
}));
export const ErrorToolPart = def('ErrorToolPart', variant('error', 'A call that failed, was denied, cancelled or interrupted. It always carries an error and never output.', {
  error: ToolError,
}));

export const NormalizedToolPart = def('NormalizedToolPart', OneOf('state', [StartedToolPart, RunningToolPart, CompleteToolPart, ErrorToolPart], {
  description: 'The one canonical shape of a tool call, whatever agent or executor produced it.',
}));
