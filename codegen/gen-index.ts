import { HEADER } from './header.js';

export function genIndex(entries: readonly string[]): string {
  const blocks = entries.map((e) => `
/** Validates a ${e}; on failure \`validate${e}.errors\` holds ajv's errors. */
export const validate${e}: CompiledValidator = v.validate${e};
/** Type guard for ${e}. */
export function is${e}(value: unknown): value is T.${e} {
  return v.validate${e}(value);
}
/** Returns the value typed as ${e}, or throws a ContractError listing every instancePath and message. */
export function assert${e}(value: unknown): T.${e} {
  if (v.validate${e}(value)) return value as T.${e};
  throw new ContractError('${e}', issuesOf(v.validate${e}.errors as never));
}
/** The issues of the last failed ${e} validation, or [] when the value is valid. */
export function issuesOf${e}(value: unknown): ContractIssue[] {
  return v.validate${e}(value) ? [] : issuesOf(v.validate${e}.errors as never);
}`);
  return `${HEADER}import * as v from './validators.js';
import type { CompiledValidator } from './validators.js';
import type * as T from './types.js';
import { ContractError, issuesOf, type ContractIssue } from '../src/contract/contract-error.js';

export type * from './types.js';
export { ContractError, type ContractIssue, type CompiledValidator };

export const ENTRY_POINTS = ${JSON.stringify(entries)} as const;
export type EntryPoint = (typeof ENTRY_POINTS)[number];

/** Validators by definition name, for code that picks the definition at run time. */
export const validators: Record<EntryPoint, CompiledValidator> = {
${entries.map((e) => `  ${e}: v.validate${e},`).join('\n')}
};
${blocks.join('\n')}
`;
}
