import { Type } from '@sinclair/typebox';
import { def } from './helpers.js';

/**
 * The well-known `ToolError.code` values; any other non-empty string is allowed too. The TypeScript
 * type of the field is `ToolErrorCode | (string & {})`: editors complete these, and a producer's own
 * code still type-checks.
 */
export const TOOL_ERROR_CODES = ['denied', 'cancelled', 'interrupted', 'timeout', 'exit_nonzero', 'not_found', 'invalid_input', 'invalid_output', 'unknown_tool', 'tool_error'] as const;

export const ToolError = def('ToolError', Type.Object({
  message: Type.String({ minLength: 1, description: 'Human-readable failure text, with provider wrappers such as <tool_use_error> removed.' }),
  code: Type.Optional(Type.String({
    minLength: 1,
    description:
      `Machine-readable reason. Well-known values: denied (policy or user), ${TOOL_ERROR_CODES.slice(1).join(', ')}. Other values are allowed.`,
  })),
  details: Type.Optional(Type.Unknown({ description: 'Structured failure detail, for example a ValidationResult or the provider\'s raw error object.' })),
}, { additionalProperties: false, description: 'Failure data of a tool part. Present only, and always, when the part state is `error`.' }));
