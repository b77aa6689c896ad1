import { Type } from '@sinclair/typebox';
import { def } from './helpers.js';

export const ToolError = def('ToolError', Type.Object({
  message: Type.String({ minLength: 1, description: 'Human-readable failure text, with provider wrappers such as <tool_use_error> removed.' }),
  code: Type.Optional(Type.String({
    minLength: 1,
    description:
      'Machine-readable reason. Well-known values: denied (policy or user), cancelled, interrupted, timeout, exit_nonzero, not_found, invalid_input, unknown_tool, tool_error. Other values are allowed.',
  })),
  details: Type.Optional(Type.Unknown({ description: 'Structured failure detail, for example a ValidationResult or the provider\'s raw error object.' })),
}, { additionalProperties: false, description: 'Failure data of a tool part. Present only, and always, when the part state is `error`.' }));
